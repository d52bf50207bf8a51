#!/usr/bin/env python3
"""An outside integrator that only keeps what it was sent, for tests/test_run_json.sh:
copies run.json to $MB_TEST_DUMP_DIR/CASE.json and declines (exit 77)."""
import os
import shutil
import sys

import json

with open(sys.argv[1]) as fh:
    case = json.load(fh)["case"]
shutil.copy(sys.argv[1], os.path.join(os.environ["MB_TEST_DUMP_DIR"], case + ".json"))
print("describe-dump keeps run.json and declines (test)")
sys.exit(77)
