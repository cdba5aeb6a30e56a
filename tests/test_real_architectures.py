"""Real architectures nobody here wrote: timm and Hugging Face transformers models built from small configs (random
weights, nothing downloaded, every dropout probability above zero, the default attention implementation).

Each evaluates under ``evaluating`` with no violation, outputs bitwise those of ``model.eval()`` +
``torch.inference_mode()`` and every mode restored; a few also under ``GradModeGuard``; and the attention-dropout bug
(``dropout_p`` not conditioned on ``self.training``), planted inside a few of them, is caught.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import torch
from torch import nn

from gradmode_plugin import GradModeGuard, GradModeViolation, evaluating
from tests.helpers.kernels import first_difference, kernels

timm = pytest.importorskip("timm")
transformers = pytest.importorskip("transformers")

pytestmark = [pytest.mark.filterwarnings("ignore::UserWarning", "ignore::FutureWarning"), pytest.mark.slow]

DROP = {"drop_rate": 0.1, "drop_path_rate": 0.1, "attn_drop_rate": 0.1, "proj_drop_rate": 0.1}
VIT = {"img_size": 32, "patch_size": 8, "depth": 2, "embed_dim": 32, "num_heads": 2}
SWIN = {"img_size": 32, "patch_size": 2, "window_size": 4, "embed_dim": 16, "depths": (1, 1), "num_heads": (1, 2)}
#: timm model name -> (small-config keyword arguments, input image size).
TIMM: dict[str, tuple[dict[str, Any], int]] = {
    "vit_tiny_patch16_224": (VIT, 32),
    "deit_tiny_patch16_224": (VIT, 32),
    "eva02_tiny_patch14_224": (VIT, 32),  # rotary position embedding
    "beit_base_patch16_224": (VIT, 32),  # relative position bias
    "cait_xxs24_224": (VIT, 32),  # class attention, layer scale
    "xcit_nano_12_p16_224": ({"img_size": 32, "depth": 2, "embed_dim": 32, "num_heads": 2}, 32),
    "swin_tiny_patch4_window7_224": (SWIN, 32),
    "swinv2_tiny_window8_256": (SWIN, 32),
    "maxvit_nano_rw_256": ({"img_size": 64, "depths": (1, 1, 1, 1)}, 64),
    "pvt_v2_b0": ({}, 64),
    "twins_svt_small": ({"img_size": 64, "depths": (1, 1, 1, 1)}, 64),
    "coat_lite_tiny": ({"img_size": 64}, 64),
    "levit_128s": ({"img_size": 64}, 64),
    "mobilevit_xxs": ({}, 64),
    "edgenext_xx_small": ({}, 64),
    "convnext_atto": ({"depths": (1, 1, 1, 1), "dims": (8, 16, 24, 32)}, 64),
    "resnet10t": ({}, 64),  # BatchNorm throughout
    "efficientnet_b0": ({}, 64),  # drop path (stochastic depth)
    "mobilenetv3_small_050": ({}, 64),
    "regnetx_002": ({}, 64),
    "ghostnet_050": ({}, 64),
    "rexnet_100": ({}, 64),
    "hardcorenas_a": ({}, 64),
    "repvit_m0_9": ({}, 64),
    "sequencer2d_s": ({"layers": (1, 1, 1, 1)}, 64),  # bidirectional LSTMs
    # its attention rebuilds a non-persistent buffer (rel_indices) in forward: noted as a risk, never a violation
    "convit_tiny": ({**VIT, "embed_dim": 48, "num_heads": 4, "local_up_to_layer": 1}, 32),
}

TEXT = {
    "vocab_size": 99,
    "hidden_size": 32,
    "num_hidden_layers": 2,
    "num_attention_heads": 2,
    "intermediate_size": 37,
    "max_position_embeddings": 64,
}
DECODER = {**TEXT, "num_key_value_heads": 1}
SEQ2SEQ = {
    "vocab_size": 99,
    "d_model": 32,
    "encoder_layers": 2,
    "decoder_layers": 2,
    "encoder_attention_heads": 2,
    "decoder_attention_heads": 2,
    "encoder_ffn_dim": 37,
    "decoder_ffn_dim": 37,
    "max_position_embeddings": 64,
}
IMAGE_FREE = {"hidden_size": 32, "num_hidden_layers": 2, "num_attention_heads": 2, "intermediate_size": 37}
IMAGE = {"image_size": 32, "patch_size": 8, "hidden_size": 32, "num_hidden_layers": 2, "num_attention_heads": 2}
#: transformers model type -> small-config keyword arguments.
TRANSFORMERS: dict[str, dict[str, Any]] = {
    "bert": TEXT,
    "roberta": TEXT,
    "distilbert": {"vocab_size": 99, "dim": 32, "n_layers": 2, "n_heads": 2, "hidden_dim": 37},
    "albert": {**TEXT, "embedding_size": 16},
    "electra": {**TEXT, "embedding_size": 16},
    "deberta-v2": TEXT,
    "gpt2": {"vocab_size": 99, "n_embd": 32, "n_layer": 2, "n_head": 2, "n_positions": 64},
    "gpt_neo": {
        "vocab_size": 99,
        "hidden_size": 32,
        "num_layers": 2,
        "num_heads": 2,
        "attention_types": [[["global", "local"], 1]],
        "max_position_embeddings": 64,
    },
    "opt": {**TEXT, "ffn_dim": 37, "word_embed_proj_dim": 32},
    "llama": DECODER,
    "mistral": DECODER,
    "qwen2": DECODER,
    "phi": TEXT,
    "gemma": {**DECODER, "head_dim": 16},
    "falcon": {"vocab_size": 99, "hidden_size": 32, "num_hidden_layers": 2, "num_attention_heads": 2},
    "bloom": {"vocab_size": 99, "hidden_size": 32, "n_layer": 2, "n_head": 2},
    "gpt_neox": TEXT,
    "t5": {"vocab_size": 99, "d_model": 32, "d_kv": 16, "d_ff": 37, "num_layers": 2, "num_heads": 2},
    "bart": SEQ2SEQ,
    "clip_text_model": TEXT,
    "vit": {**IMAGE, "intermediate_size": 37},
    "dinov2": {**IMAGE, "mlp_ratio": 2},
    # fairseq's (T, B, C) layout: a linear layer on a non-contiguous input, bitwise under the operator audit
    "fsmt": {**SEQ2SEQ, "src_vocab_size": 99, "tgt_vocab_size": 99, "langs": ["en", "de"]},
    "led": {
        **SEQ2SEQ,
        "max_encoder_position_embeddings": 64,
        "max_decoder_position_embeddings": 64,
        "attention_window": 4,
    },
    "longformer": {**TEXT, "attention_window": 4},
    "siglip_vision_model": {**IMAGE, "intermediate_size": 37},
    "wavlm": {
        **IMAGE_FREE,
        "conv_dim": (16, 16),
        "conv_stride": (5, 2),
        "conv_kernel": (10, 3),
        "num_conv_pos_embeddings": 16,
        "num_conv_pos_embedding_groups": 2,
        "num_buckets": 16,
    },
    # a sequence too short for block-sparse attention: forward replaces attention.self with a new module
    "big_bird": {**TEXT, "attention_type": "block_sparse", "block_size": 2, "num_random_blocks": 2},
    # keeps its decoding state as plain attributes, replaced by the next forward before it is read
    "recurrent_gemma": {
        **DECODER,
        "head_dim": 16,
        "lru_width": 32,
        "attention_window_size": 16,
        "block_types": ["recurrent", "attention"],
    },
}
_DROPOUT_WORDS = ("dropout", "pdrop", "drop_prob", "drop_rate", "drop_path")


def build_timm(name: str) -> tuple[nn.Module, Callable[[int], Any]]:
    config, size = TIMM[name]
    torch.manual_seed(0)
    for drop in (DROP, {"drop_rate": 0.1, "drop_path_rate": 0.1}, {"drop_rate": 0.1}):
        try:
            model = timm.create_model(name, pretrained=False, num_classes=10, **config, **drop)
            break
        except TypeError:  # this architecture takes fewer dropout arguments
            continue
    return model, lambda seed: (torch.randn(2, 3, size, size, generator=torch.Generator().manual_seed(seed)),)


def build_transformers(model_type: str, **kwargs: Any) -> tuple[nn.Module, Callable[[int], Any]]:
    config = transformers.AutoConfig.for_model(model_type, **TRANSFORMERS[model_type])
    for name, value in list(vars(config).items()):
        if isinstance(value, float) and any(word in name for word in _DROPOUT_WORDS):
            setattr(config, name, 0.1)  # every dropout probability above zero
    torch.manual_seed(0)
    model = transformers.AutoModel.from_config(config, **kwargs)

    def inputs(seed: int) -> dict[str, torch.Tensor]:
        g = torch.Generator().manual_seed(seed)
        if "image_size" in TRANSFORMERS[model_type]:
            return {"pixel_values": torch.randn(2, 3, 32, 32, generator=g)}
        if "conv_dim" in TRANSFORMERS[model_type]:
            return {"input_values": torch.randn(2, 400, generator=g)}
        ids = {"input_ids": torch.randint(0, 99, (2, 7), generator=g)}
        if model_type in ("t5", "bart", "fsmt", "led"):
            return {**ids, "decoder_input_ids": torch.randint(0, 99, (2, 5), generator=g)}
        return {**ids, "attention_mask": torch.ones(2, 7, dtype=torch.long)}

    return model, inputs


def named_flags(model: nn.Module) -> list[tuple[str, bool]]:
    return [(name, m.training) for name, m in model.named_modules()]


def call(model: nn.Module, inputs: Any) -> Any:
    return model(**inputs) if isinstance(inputs, dict) else model(*inputs)


def tensors(output: Any) -> Iterator[torch.Tensor]:
    if isinstance(output, torch.Tensor):
        yield output
    elif isinstance(output, dict) or hasattr(output, "to_tuple"):
        for value in output.values():
            yield from tensors(value)
    elif isinstance(output, (list, tuple)):
        for value in output:
            yield from tensors(value)


def same(a: Any, b: Any) -> bool:
    left, right = list(tensors(a)), list(tensors(b))
    return len(left) == len(right) > 0 and all(torch.equal(x, y) for x, y in zip(left, right))


def check_untouched(model: nn.Module, inputs: Callable[[int], Any], grad_mode: str = "inference") -> None:
    """Guarded (two batches: the first one audited) against plain ``eval()`` + the same grad context."""
    model.train()
    before = dict(named_flags(model))
    outputs = []
    with evaluating(model, grad_mode=grad_mode, on_violation="record") as scope:
        for i in range(2):
            with scope.batch(i):
                outputs.append(call(model, inputs(i)))
    assert scope.report.total == 0, scope.report.violations[:3]
    # by name: a forward may replace a submodule (BigBird), whose new children then follow their parent
    assert all(flag == before.get(name, True) for name, flag in named_flags(model)), "modes restored by name"
    assert torch.is_grad_enabled() and not torch.is_inference_mode_enabled()
    model.eval()
    with torch.inference_mode() if grad_mode == "inference" else torch.no_grad():
        plain = [call(model, inputs(i)) for i in range(2)]
    assert all(same(a, b) for a, b in zip(outputs, plain)), f"bitwise the outputs of eval() + {grad_mode}"


@pytest.mark.parametrize("name", list(TIMM))
def test_timm_architecture_evaluates_untouched(name: str) -> None:
    check_untouched(*build_timm(name))


@pytest.mark.parametrize("model_type", list(TRANSFORMERS))
def test_transformers_architecture_evaluates_untouched(model_type: str) -> None:
    check_untouched(*build_transformers(model_type))


@pytest.mark.parametrize("grad_mode", ["inference", "no_grad"])
@pytest.mark.parametrize("model_type", ["fsmt", "led", "longformer", "siglip_vision_model", "wavlm"])
def test_time_first_layouts_evaluate_bitwise_under_both_grad_modes(model_type: str, grad_mode: str) -> None:
    check_untouched(*build_transformers(model_type), grad_mode=grad_mode)


@pytest.mark.parametrize(
    ("build", "attribute"),
    [
        pytest.param(lambda: build_timm("convit_tiny"), "blocks.0.attn.rel_indices", id="timm-convit"),
        pytest.param(
            lambda: build_transformers("recurrent_gemma"),
            "layers.0.temporal_block.rg_lru.recurrent_states",
            id="transformers-recurrent_gemma",
        ),
    ],
)
def test_state_a_forward_rebuilds_is_noted_never_raised_and_training_works_after(
    build: Callable[[], tuple[nn.Module, Any]], attribute: str
) -> None:
    model, inputs = build()
    with evaluating(model, grad_mode="inference") as scope:  # under raise: runs to its end
        for i in range(2):
            with scope.batch(i):
                call(model, inputs(i))
    assert scope.report.total == 0 and attribute in scope.report.risks[0].detail
    guard = GradModeGuard()  # under raise, in Lightning, on a model built anew (no state stored yet)
    lightning_predictions(build()[0], inputs, guard)
    assert guard.report.total == 0 and guard.report.stage("predict").batches == 3
    assert attribute in guard.report.risks[0].detail
    # What was noted does not break training here: the forward replaces it before autograd reaches it.
    model.train()
    sum(t.float().sum() for t in tensors(call(model, inputs(0))) if t.requires_grad).backward()


# -- under the Lightning callback ----------------------------------------------------------------------------------
def lightning_predictions(model: nn.Module, inputs: Callable[[int], Any], guard: GradModeGuard | None) -> list[Any]:
    import pytorch_lightning as pl

    from tests.helpers.lightning import quiet_trainer

    class Wrapped(pl.LightningModule):
        def __init__(self) -> None:
            super().__init__()
            self.model = model

        def predict_step(self, batch: Any, batch_idx: int) -> Any:
            return call(self.model, inputs(batch_idx))

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        trainer = quiet_trainer("/tmp", callbacks=[guard] if guard else [])
        return trainer.predict(Wrapped(), torch.utils.data.DataLoader(range(3), batch_size=1))


@pytest.mark.parametrize(
    "build",
    [
        pytest.param(lambda: build_timm("eva02_tiny_patch14_224"), id="timm-eva02"),
        pytest.param(lambda: build_timm("resnet10t"), id="timm-resnet10t"),
        pytest.param(lambda: build_timm("swin_tiny_patch4_window7_224"), id="timm-swin"),
        pytest.param(lambda: build_transformers("llama"), id="transformers-llama"),
        pytest.param(lambda: build_transformers("bart"), id="transformers-bart"),
    ],
)
def test_architecture_under_the_callback(build: Callable[[], tuple[nn.Module, Any]]) -> None:
    model, inputs = build()
    guard = GradModeGuard()
    guarded = lightning_predictions(model, inputs, guard)
    assert guard.report.total == 0 and guard.report.stage("predict").batches == 3
    assert all(same(a, b) for a, b in zip(guarded, lightning_predictions(model, inputs, None)))


# -- the attention-dropout bug, planted inside real models -----------------------------------------------------------
def timm_attention_ignoring_training(self: nn.Module, x: torch.Tensor, attn_mask: Any = None, **kwargs: Any) -> Any:
    """timm's ``Attention.forward`` with the recurring bug: ``dropout_p`` not conditioned on ``self.training``."""
    b, n, _ = x.shape
    q, k, v = self.qkv(x).reshape(b, n, 3, self.num_heads, self.head_dim).permute(2, 0, 3, 1, 4).unbind(0)
    x = torch.nn.functional.scaled_dot_product_attention(q, k, v, dropout_p=self.attn_drop.p)  # the planted bug  # noqa: GM104
    return self.proj(x.transpose(1, 2).reshape(b, n, self.attn_dim))


def transformers_sdpa_ignoring_training(module: nn.Module, *args: Any, dropout: float = 0.0, **kwargs: Any) -> Any:
    """transformers' SDPA attention, called with the module's dropout whatever its mode (the bug of
    transformers pull 33844)."""
    from transformers.integrations.sdpa_attention import sdpa_attention_forward

    return sdpa_attention_forward(module, *args, dropout=module.attention_dropout, **kwargs)  # the planted bug


@pytest.mark.parametrize("name", ["vit_tiny_patch16_224", "deit_tiny_patch16_224"])
def test_attention_dropout_planted_in_timm_is_caught(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from timm.layers import Attention

    monkeypatch.setattr(Attention, "forward", timm_attention_ignoring_training)
    model, inputs = build_timm(name)
    with pytest.raises(GradModeViolation) as info, evaluating(model) as scope, scope.batch(0):
        call(model, inputs(0))
    v = info.value.violation
    assert (v.kind, v.batch_idx, v.module) == ("train_mode", 0, "blocks.0.attn")
    assert "dropout_p=0.1" in v.detail and "the planted bug" in (v.where or "")


@pytest.mark.parametrize("model_type", ["llama", "mistral", "qwen2"])
def test_attention_dropout_planted_in_transformers_is_caught(model_type: str) -> None:
    transformers.AttentionInterface.register("sdpa_ignoring_training", transformers_sdpa_ignoring_training)
    model, inputs = build_transformers(model_type, attn_implementation="sdpa_ignoring_training")
    with pytest.raises(GradModeViolation) as info, evaluating(model) as scope, scope.batch(0):
        call(model, inputs(0))
    v = info.value.violation
    assert (v.kind, v.batch_idx, v.module) == ("train_mode", 0, "layers.0.self_attn")
    assert "the planted bug" in (v.where or "")


def test_a_scripted_timm_model_with_a_module_left_training_is_reported_not_crashed() -> None:
    model, inputs = build_timm("resnet10t")
    scripted = torch.jit.script(model.eval())
    norm = dict(scripted.named_modules())["layer1.0.bn1"]
    with evaluating(scripted, on_violation="record") as scope, scope.batch(0):
        norm.train()  # switched to training during evaluation
        call(scripted, inputs(0))
    found = {(v.kind, v.module) for v in scope.report.violations}
    # Inside TorchScript no Python runs: the module is named by the flag walk; the statistics update is seen by
    # the operator audit, inside the scripted model (its root).
    assert found == {("train_mode", "layer1.0.bn1"), ("running_stats_updated", "")}


#: Real architectures whose every operator is compared with and without the operator audit (docs/kinds.md).
SAME_OPERATORS = [
    ("timm", name)
    for name in (
        "resnet10t",
        "vit_tiny_patch16_224",
        "convnext_atto",
        "swin_tiny_patch4_window7_224",
        "sequencer2d_s",
        "mobilevit_xxs",
    )
] + [("transformers", name) for name in ("bert", "t5", "fsmt", "llama", "wavlm", "led")]


@pytest.mark.parametrize(("library", "name"), SAME_OPERATORS)
def test_every_operator_is_the_same_under_bf16_autocast_and_inference_mode(library: str, name: str) -> None:
    model, inputs = (build_timm if library == "timm" else build_transformers)(name)
    outputs: list[Any] = []

    def forward() -> None:
        with torch.autocast("cpu", dtype=torch.bfloat16):
            outputs.append(call(model, inputs(0)))

    def plain() -> None:
        model.eval()
        with torch.inference_mode():
            forward()

    def guarded() -> None:
        model.train()
        with evaluating(model, grad_mode="inference", on_violation="record") as scope, scope.batch(0):
            forward()

    assert first_difference(kernels(plain), kernels(guarded)) is None
    assert same(outputs[0], outputs[1])
