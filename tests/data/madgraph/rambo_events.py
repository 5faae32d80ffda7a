#!/usr/bin/env python3
"""On-shell phase-space points for the reference events of a subprocess
(issue 41), independent of hepex: RAMBO (Kleiss, Stirling, Ellis, Comput.
Phys. Commun. 40 (1986) 359) for the final state, massless momenta first,
then rescaled to the masses (their section 4: one xi with
sum_i sqrt(m_i^2 + xi^2 |p_i|^2) = sqrt(s), by Newton's method). The two
incoming partons are massless along +z and -z in the centre-of-mass frame,
as MadGraph's own events are. Writes one line per event,
    ievt sqrt_s E1 px1 py1 pz1 ... En pxn pyn pzn
COUNTS events at each SQRTS (GeV) in turn, from Python's Mersenne Twister
seeded with SEED. Usage:
    python3 rambo_events.py SEED MASS,MASS,... SQRTS:COUNT [SQRTS:COUNT ...]
MASS: each final-state particle's mass in GeV (0 for gluons and light quarks)."""
import math
import random
import sys


def massless(rng, n, sqrt_s):
    """n massless momenta of total (sqrt_s, 0, 0, 0): RAMBO's section 3."""
    qs = []
    for _ in range(n):
        c = 2 * rng.random() - 1
        phi = 2 * math.pi * rng.random()
        e = -math.log(rng.random() * rng.random())
        s = math.sqrt(1 - c * c)
        qs.append((e, e * s * math.cos(phi), e * s * math.sin(phi), e * c))
    total = [sum(q[k] for q in qs) for k in range(4)]
    m = math.sqrt(total[0] ** 2 - total[1] ** 2 - total[2] ** 2 - total[3] ** 2)
    b = [-total[k] / m for k in (1, 2, 3)]
    x = sqrt_s / m
    gamma = total[0] / m
    a = 1 / (1 + gamma)
    ps = []
    for q in qs:
        bq = b[0] * q[1] + b[1] * q[2] + b[2] * q[3]
        ps.append((x * (gamma * q[0] + bq),) +
                  tuple(x * (q[k + 1] + b[k] * q[0] + a * bq * b[k]) for k in range(3)))
    return ps


def massive(ps, masses, sqrt_s):
    """Rescales massless momenta p_i to masses m_i: k_i = (sqrt(m_i^2 + xi^2 E_i^2), xi p_i)."""
    if all(m == 0 for m in masses):
        return ps
    xi = math.sqrt(1 - (sum(masses) / sqrt_s) ** 2)  # RAMBO's starting value
    for _ in range(100):
        energies = [math.sqrt(m * m + (xi * p[0]) ** 2) for m, p in zip(masses, ps)]
        f = sum(energies) - sqrt_s
        df = sum(xi * p[0] ** 2 / e for p, e in zip(ps, energies))
        step = f / df
        xi -= step
        if abs(step) <= 2e-15 * xi:  # Newton's step at the rounding of xi
            break
    else:
        if abs(f) > 1e-12 * sqrt_s:
            raise SystemExit("RAMBO's xi did not converge")
    return [(math.sqrt(m * m + (xi * p[0]) ** 2), xi * p[1], xi * p[2], xi * p[3])
            for m, p in zip(masses, ps)]


def main():
    if len(sys.argv) < 4:
        raise SystemExit(__doc__)
    rng = random.Random(int(sys.argv[1]))
    masses = [float(m) for m in sys.argv[2].split(",")]
    ievt = 0
    for spec in sys.argv[3:]:
        sqrt_s, count = spec.split(":")
        sqrt_s = float(sqrt_s)
        if sqrt_s <= sum(masses):
            raise SystemExit(f"sqrt(s) = {sqrt_s} is below the masses' sum {sum(masses)}")
        for _ in range(int(count)):
            final = massive(massless(rng, len(masses), sqrt_s), masses, sqrt_s)
            half = sqrt_s / 2
            legs = [(half, 0.0, 0.0, half), (half, 0.0, 0.0, -half)] + final
            fields = [str(ievt), repr(sqrt_s)] + [repr(x) for p in legs for x in p]
            print(" ".join(fields))
            ievt += 1


if __name__ == "__main__":
    main()
