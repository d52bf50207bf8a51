# lj_fluctuation.py -- sigma_E (population standard deviation of the total energy over t >= 1)
# of simulate CSVs lj_{smooth,cut}_{dt}.csv in the current directory, and the slope of
# log sigma_E against log dt between consecutive dt (doc/pair-potentials.md says how the
# files are made).
import csv, math, statistics as st, sys
for pot in ['smooth', 'cut']:
    prev = None
    for dt in ['0.008', '0.004', '0.002', '0.001', '0.0005']:
        r = list(csv.reader(open(f'lj_{pot}_{dt}.csv')))[1:]
        E = [float(x[4]) for x in r if float(x[0]) >= 1.0]
        s = st.pstdev(E)
        print(f'{pot:6} dt={dt:7} samples={len(E)} sigma_E={s:.4g}',
              f'slope={math.log(prev / s) / math.log(2):.3f}' if prev else '')
        prev = s
