"""First contact times: the earliest instant a polynomial distance function goes from
positive (apart) to zero (touching), on plain floats.

A quartic is never solved by its closed form here: rounding in Ferrari's method can lose
or invent roots near a grazing contact. Instead the quartic's critical points (the roots of
its cubic derivative) split the horizon into intervals on which it is monotone, and the
first interval that goes from positive to non-positive holds the root, found by Newton
steps kept inside the bracket. A contact can only be missed if it is a tangential graze
no deeper than the rounding of the critical points. A pair that is touching (or overlaps
by rounding after a collision) counts as a contact at once only if it is approaching.
"""

from __future__ import annotations

import math

INF = math.inf
TOUCH = 1e-12  # |f| below which a pair counts as touching (f in m², so ~ 1e-8 m of gap)


def _newton_in_bracket(
    c4: float, c3: float, c2: float, c1: float, c0: float, lo: float, hi: float
) -> float:
    """The root of the decreasing quartic on [lo, hi] where f(lo) > 0 >= f(hi)."""
    t = lo
    for _ in range(60):
        f = (((c4 * t + c3) * t + c2) * t + c1) * t + c0
        if f > 0.0:
            lo = t
        else:
            hi = t
        if hi - lo <= 1e-13 * (1.0 + hi):
            break
        d = ((4.0 * c4 * t + 3.0 * c3) * t + 2.0 * c2) * t + c1
        step = t - f / d if d < 0.0 else INF
        t = step if lo < step < hi else 0.5 * (lo + hi)
    return hi


def _quadratic_roots(a: float, b: float, c: float) -> list[float]:
    if a == 0.0:
        return [-c / b] if b != 0.0 else []
    disc = b * b - 4.0 * a * c
    if disc < 0.0:
        return []
    sq = math.sqrt(disc)
    q = -0.5 * (b + math.copysign(sq, b))
    if q == 0.0:
        return [0.0]
    r1, r2 = q / a, c / q
    return [r1, r2] if r1 <= r2 else [r2, r1]


def _cubic_roots(a: float, b: float, c: float, d: float, horizon: float) -> list[float]:
    """Real roots of a·t³ + b·t² + c·t + d, polished; a negligible a (relative to the other
    terms over the horizon) makes it a quadratic."""
    h = min(horizon, 1e3)
    if abs(a) * h * h * h <= 1e-13 * (abs(b) * h * h + abs(c) * h + abs(d)):
        return _quadratic_roots(b, c, d)
    bb, cc, dd = b / a, c / a, d / a
    shift = bb / 3.0
    p = cc - bb * shift
    q = 2.0 * shift * shift * shift - shift * cc + dd
    disc = 0.25 * q * q + p * p * p / 27.0
    roots: list[float]
    if disc > 0.0:
        u = -0.5 * q - math.copysign(math.sqrt(disc), q)
        cu = math.copysign(abs(u) ** (1.0 / 3.0), u)
        s = cu - p / (3.0 * cu) if cu != 0.0 else 0.0
        roots = [s - shift]
    elif p == 0.0:
        roots = [-shift]
    else:
        r = 2.0 * math.sqrt(-p / 3.0)
        arg = 3.0 * q / (p * r)
        arg = -1.0 if arg < -1.0 else 1.0 if arg > 1.0 else arg
        phi = math.acos(arg) / 3.0
        roots = [r * math.cos(phi - 2.0 * math.pi * k / 3.0) - shift for k in range(3)]
    polished = []
    for t in roots:
        for _ in range(2):
            f = ((a * t + b) * t + c) * t + d
            df = (3.0 * a * t + 2.0 * b) * t + c
            if df == 0.0:
                break
            t -= f / df
        polished.append(t)
    polished.sort()
    return polished


def first_contact_quartic(
    c4: float, c3: float, c2: float, c1: float, c0: float, horizon: float
) -> float:
    """Earliest t in [0, horizon] where f(t) = c4·t⁴ + … + c0 falls to zero from above.

    Returns 0 for a pair already touching and approaching, ``inf`` when there is none.
    """
    if c0 <= TOUCH and c1 < 0.0:
        return 0.0
    cuts = [t for t in _cubic_roots(4.0 * c4, 3.0 * c3, 2.0 * c2, c1, horizon) if 0.0 < t < horizon]
    lo, f_lo = 0.0, c0
    for hi in [*cuts, horizon]:
        f_hi = (((c4 * hi + c3) * hi + c2) * hi + c1) * hi + c0
        if f_lo > 0.0 >= f_hi:
            return _newton_in_bracket(c4, c3, c2, c1, c0, lo, hi)
        lo, f_lo = hi, f_hi
    return INF


def first_contact_quadratic(c2: float, c1: float, c0: float, horizon: float) -> float:
    """Earliest t in [0, horizon] where c2·t² + c1·t + c0 falls to zero from above."""
    if c0 <= 1e-10 and c1 < 0.0:
        return 0.0
    for t in _quadratic_roots(c2, c1, c0):
        if 0.0 <= t <= horizon and 2.0 * c2 * t + c1 < 0.0:
            return t
    return INF
