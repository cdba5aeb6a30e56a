"""A torchvision image classifier as a LightningModule, with the evaluation patterns the guard has to handle:
MC dropout at predict time, input-gradient saliency inside ``allow_grad``, and (on request) a planted bug."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Any, Final

import torch
import torch.nn.functional as F
from torch import nn

from gradmode_plugin.allow import allow_grad
from gradmode_plugin.example._lightning import pl
from gradmode_plugin.example.errors import SetupError

#: Evaluation bugs the model can plant on request (``planted_bug=...``), for the guard to catch.
PLANTED_BUGS: Final[tuple[str, ...]] = ("enable_grad_in_validation",)

OptimizerFactory = Callable[[Iterable[nn.Parameter]], torch.optim.Optimizer]
SchedulerFactory = Callable[[torch.optim.Optimizer], Any]


def build_backbone(arch: str, num_classes: int) -> tuple[nn.Module, int]:
    """A torchvision model without pretrained weights whose last ``nn.Linear`` is replaced by ``nn.Identity``;
    returns it and the number of features that layer took."""
    import torchvision

    try:
        model = torchvision.models.get_model(arch, weights=None, num_classes=num_classes)
    except ValueError as err:
        raise SetupError(
            f"model.arch={arch!r} is not a torchvision model builder ({err})",
            fix="name one, e.g. model.arch=resnet18 or model.arch=mobilenet_v3_small",
        ) from err
    last = [(name, m) for name, m in model.named_modules() if isinstance(m, nn.Linear)]
    if not last:
        raise SetupError(
            f"model.arch={arch!r} has no final nn.Linear layer to put the head on", fix="try model.arch=resnet18"
        )
    name, linear = last[-1]
    parent_name, _, attr = name.rpartition(".")
    parent = model.get_submodule(parent_name) if parent_name else model
    setattr(parent, attr, nn.Identity())
    return model, linear.in_features


class ImageClassifier(pl.LightningModule):
    """``backbone`` (a torchvision model) followed by ``head`` = ``mc_dropout`` (dropout) then ``fc`` (linear).

    Args:
        arch: torchvision model builder name, e.g. ``"resnet18"``; built with ``weights=None``.
        num_classes: number of classes.
        optimizer: ``params -> Optimizer`` (e.g. a ``functools.partial`` of ``torch.optim.Adam``); default Adam.
        scheduler: ``optimizer -> LR scheduler``, stepped per epoch on ``val/loss``; optional.
        dropout: probability of ``head.mc_dropout``.
        mc_samples: passes of the head averaged in validation, test and predict; above 1 they differ (MC dropout)
            where ``head.mc_dropout`` trains during evaluation: ``GradModeGuard(allow_train=["head.mc_dropout"])``
            puts it in training mode right after Lightning's eval hook (without it every pass is the same).
        saliency: compute input-gradient saliency maps in ``test_step`` and ``predict_step``.
        planted_bug: one of :data:`PLANTED_BUGS`, or ``None``.

    Example:
        >>> model = ImageClassifier("resnet18", num_classes=3)
        >>> model(torch.randn(2, 3, 32, 32)).shape
        torch.Size([2, 3])
    """

    def __init__(
        self,
        arch: str = "resnet18",
        num_classes: int = 10,
        optimizer: OptimizerFactory | None = None,
        scheduler: SchedulerFactory | None = None,
        dropout: float = 0.0,
        mc_samples: int = 1,
        saliency: bool = False,
        planted_bug: str | None = None,
    ) -> None:
        super().__init__()
        if not isinstance(num_classes, int) or num_classes < 2:
            # The data decides the classes (data.num_classes, or the class folders counted): a classifier of one
            # class learns nothing and scores 1.0.
            raise SetupError(
                f"num_classes={num_classes!r}: a classifier needs two classes or more",
                fix="give the data two classes or more (data.num_classes, or class folders under data.root)",
            )
        if not 0.0 <= dropout < 1.0:
            raise SetupError(f"model.dropout={dropout!r}: expected a probability in [0, 1)")
        if not isinstance(mc_samples, int) or mc_samples < 1:
            raise SetupError(f"model.mc_samples={mc_samples!r}: expected an integer >= 1")
        if mc_samples > 1 and dropout == 0.0:
            raise SetupError(
                f"model.mc_samples={mc_samples} needs model.dropout > 0: without dropout every pass is the same"
            )
        if planted_bug is not None and planted_bug not in PLANTED_BUGS:
            raise SetupError(
                f"model.planted_bug={planted_bug!r} is not supported; allowed values: null, {', '.join(PLANTED_BUGS)}"
            )
        # The factories are code, not hyperparameters: kept out of checkpoints' hparams.
        self.save_hyperparameters(ignore=["optimizer", "scheduler"], logger=False)
        self.optimizer_factory = optimizer
        self.scheduler_factory = scheduler
        self.backbone, features = build_backbone(arch, num_classes)
        self.head = nn.Sequential(
            OrderedDict(mc_dropout=nn.Dropout(dropout), fc=nn.Linear(features, num_classes)),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.backbone(x))

    # -- steps -----------------------------------------------------------------------------------------------
    def _loss_acc(self, logits: torch.Tensor, y: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return F.cross_entropy(logits, y), (logits.argmax(dim=1) == y).float().mean()

    def training_step(self, batch: tuple[torch.Tensor, torch.Tensor], batch_idx: int) -> torch.Tensor:
        x, y = batch
        loss, acc = self._loss_acc(self(x), y)
        self.log("train/loss", loss, prog_bar=True)
        self.log("train/acc", acc)
        return loss

    def _sample_probs(self, x: torch.Tensor) -> torch.Tensor:
        """``(mc_samples, B, C)`` class probabilities: the backbone once, the head once per sample. When the
        head's dropout is active (MC dropout) each sample differs."""
        features = self.backbone(x)
        return torch.stack([self.head(features).softmax(dim=-1) for _ in range(self.hparams.mc_samples)])

    def _eval_logits(self, x: torch.Tensor) -> torch.Tensor:
        if self.hparams.mc_samples == 1:
            return self(x)
        # Log of the MC-averaged probabilities: cross_entropy on them is the NLL of the averaged prediction.
        return self._sample_probs(x).mean(dim=0).clamp_min(1e-12).log()

    def validation_step(self, batch: tuple[torch.Tensor, torch.Tensor], batch_idx: int) -> None:
        x, y = batch
        if self.hparams.planted_bug == "enable_grad_in_validation":
            # The bug the guard is for: a full autograd graph per validation batch, alive as long as the logits.
            with torch.enable_grad():  # noqa: GM301
                logits = self._eval_logits(x)
        else:
            logits = self._eval_logits(x)
        loss, acc = self._loss_acc(logits, y)
        self.log("val/loss", loss, prog_bar=True, sync_dist=True)
        self.log("val/acc", acc, prog_bar=True, sync_dist=True)

    def test_step(self, batch: tuple[torch.Tensor, torch.Tensor], batch_idx: int) -> None:
        x, y = batch
        loss, acc = self._loss_acc(self._eval_logits(x), y)
        self.log("test/loss", loss, sync_dist=True)
        self.log("test/acc", acc, sync_dist=True)
        if self.hparams.saliency:
            self.log("test/saliency_mean", self.saliency(x, y).mean(), sync_dist=True)

    def predict_step(self, batch: Any, batch_idx: int) -> dict[str, torch.Tensor]:
        x = batch[0] if isinstance(batch, (list, tuple)) else batch
        probs = self._sample_probs(x)
        out = {"probs": probs.mean(dim=0), "preds": probs.mean(dim=0).argmax(dim=-1)}
        if self.hparams.mc_samples > 1:
            # The spread of the MC-dropout samples: the model's uncertainty about each image.
            out["uncertainty"] = probs.std(dim=0).mean(dim=-1)
        if self.hparams.saliency:
            out["saliency"] = self.saliency(x, out["preds"])
        return out

    # -- saliency --------------------------------------------------------------------------------------------
    def saliency(self, x: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
        """``|d logit[target] / d x|``, the maximum over channels: one ``(H, W)`` map per image."""
        with allow_grad("saliency"):
            # Under inference_mode the batch is an inference tensor, which autograd cannot record: clone it
            # here, where inference mode is off.
            x = x.detach().clone().requires_grad_()
            # gather saves its index for backward: the target needs a clone too.
            score = self(x).gather(1, target.detach().clone()[:, None]).sum()
            (grad,) = torch.autograd.grad(score, x)
        return grad.abs().amax(dim=1)

    # -- optimisation ----------------------------------------------------------------------------------------
    def configure_optimizers(self) -> Any:
        if self.optimizer_factory is None:
            optimizer: torch.optim.Optimizer = torch.optim.Adam(self.parameters(), lr=1e-3)
        else:
            optimizer = self.optimizer_factory(self.parameters())
        if self.scheduler_factory is None:
            return optimizer
        scheduler = self.scheduler_factory(optimizer)
        return {"optimizer": optimizer, "lr_scheduler": {"scheduler": scheduler, "monitor": "val/loss"}}
