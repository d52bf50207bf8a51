#!/usr/bin/env python3
"""flat_vs_json.py -- run.txt against run.json, each parsed on its own (doc/external.md,
section 3a): every value of run.json must be in run.txt, written by the grammar's rules,
and run.txt must hold nothing else.  Numbers are compared exactly (17 significant digits
read back as the same double).  The JSON is parsed by Python's json module and the flat
file by the line rules below, neither by motionbench's code.

usage: flat_vs_json.py run.json run.txt     exit 0 equal, 1 a difference (printed)"""
import json
import sys


def read_flat(path):
    """KEY -> the text after 'KEY ' (None for a line holding KEY alone), in file order."""
    lines = {}
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if line.startswith("#"):
                continue
            key, blank, value = line.partition(" ")
            if key in lines:
                raise SystemExit(f"{path}:{number}: key {key} given twice")
            lines[key] = value if blank else None
    return lines


def scalar_word(v):
    if isinstance(v, (bool, int, float)):
        return True
    return isinstance(v, str) and v != "" and " " not in v and "\t" not in v


def same_scalar(v, text):
    """Is text the flat form of the JSON scalar v?"""
    if isinstance(v, bool):
        return text == ("1" if v else "0")
    if v is None:
        return text == "null"
    if isinstance(v, int):
        return text == str(v)
    if isinstance(v, float):
        try:
            return float(text) == v
        except ValueError:
            return False
    return text == v


def compare(v, key, flat, used, faults):
    def take(k):
        if k not in flat:
            faults.append(f"{k}: missing from run.txt")
            return None
        used.add(k)
        return flat[k]

    if isinstance(v, dict):
        for name, sub in v.items():
            compare(sub, f"{key}.{name}" if key else name, flat, used, faults)
    elif isinstance(v, list) and v and all(scalar_word(e) for e in v):
        text = take(key)
        words = (text or "").split(" ")
        if text is not None and (len(words) != len(v)
                                 or not all(same_scalar(e, w) for e, w in zip(v, words))):
            faults.append(f"{key}: run.txt has '{text}', run.json {v}")
    elif isinstance(v, list):
        count = take(key + ".count")
        if count is not None and count != str(len(v)):
            faults.append(f"{key}.count: run.txt has {count}, run.json {len(v)} elements")
        for k, sub in enumerate(v):
            compare(sub, f"{key}.{k}", flat, used, faults)
    elif isinstance(v, str) and v == "":
        if take(key) is not None:
            faults.append(f"{key}: run.txt has a value, run.json an empty string")
    else:
        text = take(key)
        if text is not None and not same_scalar(v, text):
            faults.append(f"{key}: run.txt has '{text}', run.json {v!r}")


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    with open(sys.argv[1], encoding="utf-8") as f:
        description = json.load(f)
    flat = read_flat(sys.argv[2])
    used, faults = set(), []
    compare(description, "", flat, used, faults)
    faults += [f"{k}: in run.txt only" for k in flat if k not in used]
    for fault in faults:
        print(f"{sys.argv[2]}: {fault}")
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
