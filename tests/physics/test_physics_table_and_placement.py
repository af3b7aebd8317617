"""The table (WPA 9-ft), the rack (R2), spotting the 9 (G3) and ball in hand (R10)."""

from __future__ import annotations

import math

import pytest

from server.physics import (
    DEFAULT_PARAMS,
    TABLE,
    Params,
    ParamsError,
    PlacementError,
    Shot,
    check_placement,
    kitchen_spot,
    params_dict,
    rack,
    simulate,
    spot_ball,
)

R = TABLE.ball_radius


def test_table_dimensions_and_markings() -> None:
    assert (TABLE.length, TABLE.width) == (2.54, 1.27)
    assert pytest.approx(0.05715) == 2 * R
    assert TABLE.head_string_x == pytest.approx(2.54 / 4)
    assert TABLE.foot_spot == pytest.approx((2.54 * 3 / 4, 1.27 / 2))
    assert set(TABLE.pockets) == {"H0", "H1", "S0", "S1", "F0", "F1"}
    assert set(TABLE.rails) == {"head", "foot", "y0h", "y0f", "y1h", "y1f"}
    assert len(TABLE.diamonds) == 18
    assert TABLE.cushion_height / (2 * R) == pytest.approx(0.635, abs=0.01)


@pytest.mark.parametrize("name", ["H0", "H1", "S0", "S1", "F0", "F1"])
def test_pocket_mouths_and_jaw_angles_are_wpa(name: str) -> None:
    pocket = TABLE.pockets[name]
    (x0, y0), (x1, y1) = pocket.mouth
    mouth = math.hypot(x1 - x0, y1 - y0)
    corner = name[0] in "HF"
    lo, hi = (0.1143, 0.1175) if corner else (0.127, 0.1302)
    assert lo <= mouth <= hi
    for jaw in pocket.jaws:
        rail = TABLE.rails[jaw.rail]
        nose = (rail.start[0] - rail.end[0], rail.start[1] - rail.end[1])
        # The nose direction pointing away from the pocket, and the facing into the rail.
        if math.dist(rail.start, jaw.point) < math.dist(rail.end, jaw.point):
            nose = (-nose[0], -nose[1])
        facing = (jaw.facing.end[0] - jaw.facing.start[0], jaw.facing.end[1] - jaw.facing.start[1])
        cos = (nose[0] * facing[0] + nose[1] * facing[1]) / (
            math.hypot(*nose) * math.hypot(*facing)
        )
        assert math.degrees(math.acos(cos)) == pytest.approx(142.0 if corner else 103.0, abs=0.01)
        # The hole lies behind the mouth, on the far side from the table.
        assert not (0.0 < pocket.centre[0] < TABLE.length and 0.0 < pocket.centre[1] < TABLE.width)


def test_params_dict_is_flat_si_with_required_keys() -> None:
    flat = params_dict(DEFAULT_PARAMS)
    for key in (
        "ball_radius",
        "ball_mass",
        "mu_slide",
        "mu_roll",
        "mu_spin",
        "mu_ball",
        "e_ball",
        "e_cushion",
        "g",
        "table_length",
        "table_width",
        "corner_mouth",
        "side_mouth",
    ):
        assert isinstance(flat[key], float)
    assert all(isinstance(v, float | str) for v in flat.values())
    assert flat["spin_decay"] == pytest.approx(10.0)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"mu_slide": -0.1},
        {"e_ball": 1.5},
        {"g": math.nan},
        {"ball_cushion_model": "nope"},
        {"cushion_height": 0.01},
        {"miscue_limit": 1.0},
    ],
)
def test_bad_params_are_rejected(kwargs: dict[str, object]) -> None:
    with pytest.raises(ParamsError):
        Params(**kwargs)  # type: ignore[arg-type]


# R2 ---------------------------------------------------------------------------------------


def test_r2_rack_diamond_one_on_foot_spot_nine_in_centre() -> None:
    balls = rack(42)
    assert sorted(balls) == list(range(1, 10))
    assert balls[1] == TABLE.foot_spot
    xs = sorted({round(x, 3) for x, _ in balls.values()})
    assert len(xs) == 5  # five rows
    centre_row = [b for b, (x, _) in balls.items() if round(x, 3) == xs[2]]
    assert len(centre_row) == 3
    assert balls[9][1] == pytest.approx(TABLE.width / 2, abs=1e-4)
    assert balls[9][0] == pytest.approx(xs[2], abs=1e-4)


def test_r2_rack_frozen_tight_without_overlap() -> None:
    for seed in range(50):
        balls = rack(seed)
        ids = sorted(balls)
        gaps = [math.dist(balls[a], balls[b]) - 2 * R for a in ids for b in ids if a < b]
        neighbour_gaps = [g for g in gaps if g < R]
        assert min(gaps) > 0.0
        assert len(neighbour_gaps) == 16  # the diamond's 16 touching pairs
        assert max(neighbour_gaps) < 1e-4  # tens of micrometres at most


def test_r2_same_seed_same_rack_and_seeds_vary() -> None:
    assert rack(7) == rack(7)
    orders = {tuple(sorted(rack(s), key=lambda b: rack(s)[b])) for s in range(20)}
    assert len(orders) > 10


def test_r2_rack_seed_must_be_an_integer() -> None:
    with pytest.raises(PlacementError):
        rack("7")  # type: ignore[arg-type]


def test_r2_break_from_kitchen_spot_hits_the_one_first() -> None:
    balls = {0: kitchen_spot(), **rack(1)}
    check_placement(rack(1), kitchen_spot(), kitchen=True)
    out = simulate(balls, Shot(0.0, 10.0))
    assert out.report.first == 1
    assert len([e for e in out.events if e.kind == "ball"]) >= 9


# G3 ---------------------------------------------------------------------------------------


def test_g3_nine_goes_on_free_foot_spot() -> None:
    assert spot_ball({0: (0.5, 0.5), 3: (1.0, 1.0)}) == TABLE.foot_spot


def test_g3_occupied_foot_spot_moves_behind_toward_foot_rail() -> None:
    fx, fy = TABLE.foot_spot
    x, y = spot_ball({1: (fx, fy)})
    assert y == fy
    assert x == pytest.approx(fx + 2 * R, abs=1e-5)
    assert x > fx


def test_g3_no_room_behind_goes_in_front() -> None:
    fx, fy = TABLE.foot_spot
    # Six balls on the long string, 4R apart, from the foot spot to the foot rail: no gap
    # between them fits a ball, and none behind the last.
    balls = {k: (fx + (k - 1) * (4 * R - 1e-5), fy) for k in range(1, 7)}
    assert balls[6][0] + 2 * R > TABLE.length - R
    x, y = spot_ball(balls)
    assert x < fx and y == fy
    assert min(math.dist((x, y), p) for p in balls.values()) >= 2 * R


def test_g3_spot_ignores_the_spotted_balls_own_entry() -> None:
    assert spot_ball({9: TABLE.foot_spot}) == TABLE.foot_spot


# R10 --------------------------------------------------------------------------------------


def test_r10_valid_placements() -> None:
    check_placement({1: (1.9, 0.6)}, (0.4, 0.4), kitchen=True)
    check_placement({1: (1.9, 0.6)}, (1.9, 0.6 + 2 * R + 1e-4), kitchen=False)
    check_placement({0: (1.0, 1.0)}, (1.0, 1.0), kitchen=False)  # the cue ball's own entry


@pytest.mark.parametrize(
    ("pos", "kitchen", "code"),
    [
        ((1.0, 0.6), True, "outside_kitchen"),
        ((0.01, 0.6), False, "off_surface"),
        ((-0.5, 0.6), False, "off_surface"),
        ((1.27, 0.02), False, "off_surface"),
        ((1.9 + 2 * R - 1e-4, 0.6), False, "touches_ball"),
        ((1.9 + 2 * R, 0.6), False, "touches_ball"),
        ((math.nan, 0.5), False, "bad_position"),
        ((0.5,), False, "bad_position"),
    ],
)
def test_r10_bad_placements_are_rejected(pos: tuple[float, ...], kitchen: bool, code: str) -> None:
    with pytest.raises(PlacementError) as err:
        check_placement({1: (1.9, 0.6)}, pos, kitchen=kitchen)  # type: ignore[arg-type]
    assert err.value.code == code
    assert err.value.message


# simulate's own checks ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("balls", "code"),
    [
        ({1: (1.0, 0.5)}, "no_cue_ball"),
        ({0: (1.0, 0.5), 1: (1.0 + 2 * R - 1e-4, 0.5)}, "overlap"),
        ({0: (1.0, 0.5), 10: (1.5, 0.5)}, "bad_ball"),
        ({0: (3.0, 0.5)}, "off_surface"),
        ({0: (1.0, 0.01)}, "off_surface"),
        ({0: (1.0, math.inf)}, "bad_position"),
    ],
)
def test_simulate_rejects_bad_positions(balls: dict[int, tuple[float, float]], code: str) -> None:
    with pytest.raises(PlacementError) as err:
        simulate(balls, Shot(0.0, 1.0))
    assert err.value.code == code


def test_simulate_accepts_touching_balls() -> None:
    out = simulate({0: (1.0, 0.5), 1: (1.0 + 2 * R, 0.5)}, Shot(0.0, 1.0))
    assert out.report.first == 1
