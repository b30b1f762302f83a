#!/usr/bin/python3
"""scipy as the independent oracle of compare.sh's tests, intervals and
minimum detectable effects.

  gate_oracle.py make DIR N SEED   write runs DIR/base and DIR/new with N
                                   benches pair0..pairN-1 of random samples
  gate_oracle.py check DIR JSON    check compare.sh --format json's figures

Pairs vary in size (3..40 a side), spread, shift, sign of the mean and
shape (normal and lognormal).  The checks use methods other than mmstat's:
scipy's Welch test for t, df and p; Fieller's interval as the roots of the
test of a - r*b = 0 found by bisection (brentq), not the quadratic formula;
the power at the minimum detectable effect from the noncentral t.
"""
import json
import os
import sys

import numpy as np
from scipy import optimize, stats


def make(root, n, seed):
    rng = np.random.default_rng(seed)
    for run in ("base", "new"):
        os.makedirs(os.path.join(root, run), exist_ok=True)
        with open(os.path.join(root, run, "meta"), "w") as f:
            f.write("status: complete\n")
    for i in range(n):
        na, nb = rng.integers(3, 41, size=2)
        mu = rng.uniform(1, 1000) * (-1 if i % 5 == 4 else 1)
        cv = rng.uniform(0.005, 0.2)
        shift = rng.uniform(-0.15, 0.15) if i % 3 else 0.0
        for run, size, m in (("base", nb, mu), ("new", na, mu * (1 + shift))):
            if i % 2:
                s = np.sqrt(np.log(1 + cv * cv))
                x = abs(m) * np.exp(s * rng.standard_normal(size) - s * s / 2) * np.sign(m)
            else:
                x = m + abs(m) * cv * rng.standard_normal(size) * rng.uniform(0.5, 2)
            d = os.path.join(root, run, f"pair{i}")
            os.makedirs(d, exist_ok=True)
            with open(os.path.join(d, "metrics.tsv"), "w") as f:
                f.write("v\tV\ts\tlower\n")
            with open(os.path.join(d, "samples.tsv"), "w") as f:
                f.write("metric\tparam\titeration\tvalue\n")
                for k, v in enumerate(x):
                    f.write(f"v\t-\t{k}\t{v!r}\n")


def values(path):
    rows = [line.rstrip("\n").split("\t") for line in open(path)][1:]
    return np.array([float(r[3]) for r in rows])


def fieller_by_roots(a, va, b, vb, q):
    """The ratios r where (a - r b)^2 = q^2 (va + r^2 vb), by bisection."""
    g = lambda r: (a - r * b) ** 2 - q * q * (va + r * r * vb)
    est, step = a / b, q * np.sqrt(va + vb * (a / b) ** 2) / abs(b)
    lo = est - step
    while g(lo) < 0:
        lo = est - 2 * (est - lo)
    hi = est + step
    while g(hi) < 0:
        hi = est + 2 * (hi - est)
    return optimize.brentq(g, lo, est, xtol=1e-15), optimize.brentq(g, est, hi, xtol=1e-15)


def near(ours, want, rel, what, bench, bad, scale=None):
    scale = abs(want) if scale is None else scale
    if not abs(ours - want) <= rel * scale + 1e-300:
        bad.append(f"{bench}: {what} ours {ours!r} scipy {want!r}")


def check_pair(root, bench, test, alpha, bad):
    xb = values(os.path.join(root, "base", bench, "samples.tsv"))
    xa = values(os.path.join(root, "new", bench, "samples.tsv"))
    r = stats.ttest_ind(xa, xb, equal_var=False)
    va, vb = xa.var(ddof=1) / len(xa), xb.var(ddof=1) / len(xb)
    df = (va + vb) ** 2 / (va * va / (len(xa) - 1) + vb * vb / (len(xb) - 1))
    near(test["t"], r.statistic, 1e-9, "t", bench, bad)
    near(test["df"], df, 1e-9, "df", bench, bad)
    near(test["p_value"], r.pvalue, 1e-9, "p", bench, bad)
    a, b = xa.mean(), xb.mean()
    th = a / b
    dfr = (va + th * th * vb) ** 2 / (va * va / (len(xa) - 1) + th ** 4 * vb * vb / (len(xb) - 1))
    q = stats.t.isf(alpha / 2, dfr)
    if b * b - q * q * vb > 0:
        lo, hi = sorted((r_ - 1) * 100 * np.sign(b) for r_ in fieller_by_roots(a, va, b, vb, q))
        # GSL's t quantile is good to about 1e-10: relative to the width
        near(test["change_pct_low"], lo, 1e-8, "Fieller low", bench, bad, hi - lo)
        near(test["change_pct_high"], hi, 1e-8, "Fieller high", bench, bad, hi - lo)
    elif test["change_pct_low"] is not None:
        bad.append(f"{bench}: the baseline mean is not distinguishable from 0, yet an interval")
    se, tc = np.sqrt(va + vb), stats.t.isf(alpha / 2, df)
    delta = test["mde"] / se
    power = stats.nct.sf(tc, df, delta) + stats.nct.cdf(-tc, df, delta)
    # (t(1-a/2) + t(power)) * se is the textbook approximation: within 0.01
    # of 80% from 4 degrees of freedom on (0.791 at df = 4)
    if df >= 4 and not 0.79 <= power <= 0.81:
        bad.append(f"{bench}: power at the MDE {power:.4f}, df {df:.2f}")


def check(root, path):
    doc = json.load(open(path))
    bad, n = [], 0
    for bench in doc["benches"]:
        test = bench["metrics"][0]["params"][0]["runs"][1]["test"]
        check_pair(root, bench["name"], test, doc["alpha"], bad)
        n += 1
    print("\n".join(bad[:20]))
    print(f"{n} pairs checked, {len(bad)} disagreements", file=sys.stderr)
    return 1 if bad or n == 0 else 0


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    else:
        sys.exit(check(sys.argv[2], sys.argv[3]))
