"""The model names `Params` accepts are exactly the models the registries hold.

`server.physics.params.MODEL_NAMES` names them so that `params` need not import the
models (which import `params`); this keeps the two lists one."""

from __future__ import annotations

import pytest

from server.physics import Params, ParamsError
from server.physics.params import MODEL_NAMES
from server.physics.resolve import ball_ball, ball_cushion, bed, cluster, pocket, strike

REGISTRIES = {
    "strike_model": strike.MODELS,
    "ball_ball_model": ball_ball.MODELS,
    "ball_cushion_model": ball_cushion.MODELS,
    "cluster_model": cluster.MODELS,
    "pocket_model": pocket.MODELS,
    "bed_model": bed.MODELS,
}


def test_every_model_field_has_a_registry() -> None:
    assert set(MODEL_NAMES) == set(REGISTRIES)


@pytest.mark.parametrize("field", sorted(REGISTRIES))
def test_names_match_the_registry(field: str) -> None:
    assert sorted(MODEL_NAMES[field]) == sorted(REGISTRIES[field])


@pytest.mark.parametrize("field", sorted(REGISTRIES))
def test_every_registered_model_is_accepted_and_nothing_else(field: str) -> None:
    for name in REGISTRIES[field]:
        assert getattr(Params(**{field: name}), field) == name
    with pytest.raises(ParamsError, match=field):
        Params(**{field: "no_such_model"})
