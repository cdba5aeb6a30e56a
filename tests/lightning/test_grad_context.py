"""GradModeGuard in real Lightning runs: the grad context it decides, and numerics (clipping under no_grad, weights
identical with and without the guard)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import torch

from gradmode_plugin import GradModeGuard
from tests.helpers.lightning import ToyModule, make_loader

THIS_FILE = Path(__file__).name


# -- grad context ---------------------------------------------------------------------------------------------
class RecordsContext(ToyModule):
    def __init__(self) -> None:
        super().__init__()
        self.contexts: list[tuple[bool, bool]] = []

    def validation_step(self, batch: Any, batch_idx: int) -> None:
        self.contexts.append((torch.is_inference_mode_enabled(), torch.is_grad_enabled()))
        super().validation_step(batch, batch_idx)


@pytest.mark.parametrize(
    ("grad_mode", "trainer_inference", "expected"),
    [
        ("auto", True, True),
        ("auto", False, False),
        ("inference", False, True),
        ("no_grad", True, False),
        ("no_grad", False, False),
    ],
)
def test_guard_decides_the_grad_context(
    make_trainer: Any, grad_mode: str, trainer_inference: bool, expected: bool
) -> None:
    model = RecordsContext()
    guard = GradModeGuard(grad_mode=grad_mode)
    make_trainer(callbacks=[guard], inference_mode=trainer_inference).validate(model, make_loader())
    assert set(model.contexts) == {(expected, False)}
    assert guard.report.stage("validation").grad_context == ("inference_mode" if expected else "no_grad")


def test_auto_uses_no_grad_for_validation_inside_fit(make_trainer: Any, caplog: pytest.LogCaptureFixture) -> None:
    model = RecordsContext()
    with caplog.at_level("INFO", logger="gradmode_plugin"):
        make_trainer(callbacks=[GradModeGuard()], num_sanity_val_steps=0).fit(model, make_loader(), make_loader())
    assert set(model.contexts) == {(False, False)}
    chosen = [r.getMessage() for r in caplog.records if "runs under" in r.getMessage()]
    assert len(chosen) == 1 and "no_grad" in chosen[0] and "validation during fit" in chosen[0]


# -- numerics -------------------------------------------------------------------------------------------------
def _fit_weights(make_trainer: Any, guard: bool, **kwargs: Any) -> dict[str, torch.Tensor]:
    torch.manual_seed(7)
    model = ToyModule()
    callbacks = [GradModeGuard()] if guard else []
    make_trainer(callbacks=callbacks, max_epochs=2, deterministic=True, **kwargs).fit(
        model, make_loader(seed=1), make_loader(seed=2)
    )
    return {k: v.clone() for k, v in model.state_dict().items()}


@pytest.mark.parametrize("algorithm", ["norm", "value"])
def test_clipping_gives_identical_weights_with_and_without_guard(make_trainer: Any, algorithm: str) -> None:
    kwargs = {"gradient_clip_val": 0.05, "gradient_clip_algorithm": algorithm}
    plain = _fit_weights(make_trainer, guard=False, **kwargs)
    guarded = _fit_weights(make_trainer, guard=True, **kwargs)
    unclipped = _fit_weights(make_trainer, guard=False)
    assert all(torch.equal(plain[k], guarded[k]) for k in plain)
    assert not all(torch.equal(plain[k], unclipped[k]) for k in plain), "clipping must have had an effect"


class AdaptiveClipping(ToyModule):
    """User clipping code that computes parameter norms: records a graph unless run under no_grad."""

    def __init__(self) -> None:
        super().__init__()
        self.norm_requires_grad: list[bool] = []

    def configure_gradient_clipping(
        self, optimizer: Any, gradient_clip_val: Any = None, gradient_clip_algorithm: Any = None
    ) -> None:
        params = [p for p in self.parameters() if p.grad is not None]
        weight_norm = torch.stack([p.norm() for p in params]).norm()
        self.norm_requires_grad.append(weight_norm.requires_grad)
        torch.nn.utils.clip_grad_norm_(params, max_norm=float(0.01 * weight_norm))


@pytest.mark.parametrize("guarded", [True, False])
def test_user_clipping_code_records_no_graph_under_guard(make_trainer: Any, guarded: bool) -> None:
    model = AdaptiveClipping()
    make_trainer(callbacks=[GradModeGuard()] if guarded else []).fit(model, make_loader(), make_loader())
    assert model.norm_requires_grad and set(model.norm_requires_grad) == {not guarded}
    assert "configure_gradient_clipping" not in vars(model)
