"""Tiny transformers models built from local configs (nothing downloaded), generated token data, quiet CPU Trainers,
and the planted evaluation bugs every Hugging Face test checks the guard against."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any, Final

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn
from transformers import (
    BertConfig,
    BertForSequenceClassification,
    Seq2SeqTrainer,
    Seq2SeqTrainingArguments,
    T5Config,
    T5ForConditionalGeneration,
    Trainer,
    TrainingArguments,
)

#: The keys of transformers' metrics that are wall-clock times (they differ between any two runs).
TIMING_KEYS: Final[tuple[str, ...]] = ("runtime", "per_second", "preparation_time")

logging.getLogger("transformers").setLevel(logging.ERROR)
logging.getLogger("accelerate").setLevel(logging.ERROR)


class TokenData(torch.utils.data.Dataset):
    """``n`` generated examples: ``input_ids`` of ``length`` tokens, and labels (a class, or ``target`` tokens)."""

    def __init__(self, n: int = 8, length: int = 8, target: int | None = None, seed: int = 1, vocab: int = 64) -> None:
        g = torch.Generator().manual_seed(seed)
        self.x = torch.randint(2, vocab, (n, length), generator=g)
        self.y = torch.randint(2, vocab, (n, target), generator=g) if target else torch.randint(0, 2, (n,), generator=g)

    def __len__(self) -> int:
        return len(self.x)

    def __getitem__(self, i: int) -> dict[str, torch.Tensor]:
        return {"input_ids": self.x[i], "labels": self.y[i]}


def bert_config() -> BertConfig:
    return BertConfig(
        vocab_size=64,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=37,
        max_position_embeddings=32,
    )


def t5_config() -> T5Config:
    return T5Config(
        vocab_size=64,
        d_model=16,
        d_kv=8,
        d_ff=32,
        num_layers=1,
        num_decoder_layers=1,
        num_heads=2,
        decoder_start_token_id=0,
        pad_token_id=0,
        eos_token_id=1,
    )


class BertWithBNHead(BertForSequenceClassification):
    """A BERT classifier whose BatchNorm head is kept training by its ``train()`` override: ``model.eval()`` leaves
    it updating its statistics."""

    def __init__(self, config: BertConfig) -> None:
        super().__init__(config)
        self.bn_head = nn.BatchNorm1d(config.num_labels)

    def train(self, mode: bool = True) -> BertWithBNHead:
        super().train(mode)
        self.bn_head.train()  # planted: bn_head
        return self

    def forward(self, **kwargs: Any) -> Any:
        out = super().forward(**kwargs)
        out.logits = self.bn_head(out.logits)
        return out


class T5WithBNHead(T5ForConditionalGeneration):
    """The same planted head on a T5: BatchNorm over the vocabulary of each position."""

    def __init__(self, config: T5Config) -> None:
        super().__init__(config)
        self.bn_head = nn.BatchNorm1d(config.vocab_size)

    def train(self, mode: bool = True) -> T5WithBNHead:
        super().train(mode)
        self.bn_head.train()  # planted: bn_head
        return self

    def forward(self, input_ids: Any = None, labels: Any = None, **kwargs: Any) -> Any:
        out = super().forward(input_ids=input_ids, labels=labels, **kwargs)
        out.logits = self.bn_head(out.logits.flatten(0, -2)).view_as(out.logits)
        return out


class BertWithDropout(BertForSequenceClassification):
    def forward(self, **kwargs: Any) -> Any:
        out = super().forward(**kwargs)
        out.logits = F.dropout(out.logits, 0.1)  # noqa: GM101  # planted: functional_dropout
        return out


class T5WithDropout(T5ForConditionalGeneration):
    def forward(self, input_ids: Any = None, labels: Any = None, **kwargs: Any) -> Any:
        out = super().forward(input_ids=input_ids, labels=labels, **kwargs)
        out.logits = F.dropout(out.logits, 0.1)  # noqa: GM101  # planted: functional_dropout
        return out


def _attention_pool(logits: torch.Tensor) -> torch.Tensor:
    q = logits.reshape(logits.shape[0], 1, -1, logits.shape[-1])
    return F.scaled_dot_product_attention(q, q, q, dropout_p=0.1).view_as(logits)  # noqa: GM104  # planted: attention_dropout


class _Planted:
    """Planted bugs in a Trainer subclass's ``compute_loss`` or ``prediction_step`` (a mixin of the test's own)."""

    bug: str = ""

    def compute_loss(
        self, model: Any, inputs: Any, return_outputs: bool = False, num_items_in_batch: Any = None
    ) -> Any:
        if self.bug == "train_in_compute_loss":
            model.train()  # planted: train_in_compute_loss
        outputs = model(**inputs)
        if self.bug == "attention_dropout":
            outputs.logits = _attention_pool(outputs.logits)
        return (outputs.loss, outputs) if return_outputs else outputs.loss

    def prediction_step(
        self, model: Any, inputs: Any, prediction_loss_only: bool, ignore_keys: Any = None, **kwargs: Any
    ) -> Any:
        if self.bug != "enable_grad":
            return super().prediction_step(model, inputs, prediction_loss_only, ignore_keys, **kwargs)  # type: ignore[misc]
        inputs = self._prepare_inputs(inputs)  # type: ignore[attr-defined]
        with torch.enable_grad():  # planted: enable_grad
            loss, outputs = self.compute_loss(model, inputs, return_outputs=True)
        return loss.detach(), outputs.logits.detach(), inputs["labels"]


class PlantedTrainer(_Planted, Trainer):
    pass


class PlantedSeq2SeqTrainer(_Planted, Seq2SeqTrainer):
    pass


#: The bugs planted, each with the kind of its finding.
BUGS: Final[dict[str, str]] = {
    "functional_dropout": "train_mode",
    "attention_dropout": "train_mode",
    "train_in_compute_loss": "train_mode",
    "enable_grad": "graph_built",
    "bn_head": "train_mode",
}


def planted_lines(bug: str) -> list[str]:
    """``helpers/hf.py:<line>`` for each line the bug is planted on (one per model class or one in the Trainer)."""
    lines = Path(__file__).read_text().splitlines()
    numbers = [i for i, line in enumerate(lines, 1) if line.rstrip().endswith(f"# planted: {bug}")]
    return [f"{Path(__file__).name}:{number}" for number in numbers]


def model_for(arch: str, bug: str = "") -> nn.Module:
    torch.manual_seed(0)
    if arch == "bert":
        cls = {"bn_head": BertWithBNHead, "functional_dropout": BertWithDropout}.get(bug, BertForSequenceClassification)
        return cls(bert_config())
    cls = {"bn_head": T5WithBNHead, "functional_dropout": T5WithDropout}.get(bug, T5ForConditionalGeneration)
    return cls(t5_config())


def data_for(arch: str, n: int = 8, seed: int = 1) -> TokenData:
    return TokenData(n=n, target=4 if arch == "t5" else None, seed=seed)


def make_trainer(
    arch: str,
    out: Path,
    bug: str = "",
    callbacks: list[Any] | None = None,
    model: nn.Module | None = None,
    **args: Any,
) -> Trainer:
    """A quiet CPU Trainer (``Seq2SeqTrainer`` for T5) on generated data, with ``bug`` planted."""
    defaults: dict[str, Any] = {
        "output_dir": str(out),
        "per_device_train_batch_size": 4,
        "per_device_eval_batch_size": 4,
        "report_to": [],
        "use_cpu": True,
        "disable_tqdm": True,
        "save_strategy": "no",
        "logging_strategy": "no",
        "dataloader_num_workers": 0,
        "remove_unused_columns": False,
        "seed": 0,
    }
    defaults.update(args)
    seq2seq = arch == "t5"
    arguments = Seq2SeqTrainingArguments(**defaults) if seq2seq else TrainingArguments(**defaults)
    cls = PlantedSeq2SeqTrainer if seq2seq else PlantedTrainer
    trainer = cls(
        model=model if model is not None else model_for(arch, bug),
        args=arguments,
        train_dataset=data_for(arch, seed=2),
        eval_dataset=data_for(arch),
        callbacks=callbacks,
    )
    trainer.bug = bug if bug in ("train_in_compute_loss", "attention_dropout", "enable_grad") else ""
    return trainer


def without_timings(metrics: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in metrics.items() if not any(t in k for t in TIMING_KEYS)}


#: Training with evaluation every step and at the start, logged every step: every path into evaluation in one run.
EVALUATING_RUN: dict[str, Any] = {
    "eval_strategy": "steps",
    "eval_steps": 1,
    "max_steps": 2,
    "eval_on_start": True,
    "logging_strategy": "steps",
    "logging_steps": 1,
}


def outcome(arch: str, out: Path, guard: bool, **args: Any) -> dict[str, Any]:
    """Everything a user sees of ``train()``, ``evaluate()`` and ``predict()``, with or without ``HFGradModeGuard``:
    metrics and log history (timings left out), predictions, the model's mode after each, and the final weights."""
    from gradmode_plugin import HFGradModeGuard

    trainer = make_trainer(arch, out, callbacks=[HFGradModeGuard()] if guard else None, **args)
    result: dict[str, Any] = {"train": without_timings(trainer.train().metrics)}
    result["history"] = [without_timings(entry) for entry in trainer.state.log_history]
    result["evaluate"] = without_timings(trainer.evaluate())
    result["training_after_evaluate"] = trainer.model.training
    predicted = trainer.predict(data_for(arch, seed=3))
    result["predictions"] = predicted.predictions
    result["training_after_predict"] = trainer.model.training
    result["weights"] = {k: v.clone() for k, v in trainer.model.state_dict().items()}
    return result


def assert_same_outcome(plain: dict[str, Any], guarded: dict[str, Any]) -> None:
    """Two :func:`outcome` results are bitwise the same, and the run did evaluate during training."""
    assert plain["history"] and any("eval_loss" in entry for entry in plain["history"])
    for key in ("train", "history", "evaluate", "training_after_evaluate", "training_after_predict"):
        assert guarded[key] == plain[key], key
    predictions = (plain["predictions"], guarded["predictions"])
    for a, b in zip(*(p if isinstance(p, tuple) else (p,) for p in predictions)):
        assert np.array_equal(a, b)
    for name, weight in plain["weights"].items():
        assert torch.equal(weight, guarded["weights"][name]), name
