r"""One of transformers' own example scripts, unmodified, with and without the drop-in guard: ``run_clm.py``.

The recipe takes the script from a checkout of transformers' ``examples/pytorch/language-modeling/`` (nothing of
transformers is copied into this project) and runs it twice, offline, on files it writes itself:

- a small text corpus (``train.txt``, ``validation.txt``) generated from a fixed seed;
- a word-level tokenizer over its words, saved as a local ``PreTrainedTokenizerFast``;
- a local ``accuracy`` metric for ``evaluate.load("accuracy")`` (evaluate loads a folder ``accuracy/accuracy.py`` in
  the working directory before it asks the Hub; the Hub's metric is sklearn's ``accuracy_score``, the same fraction
  of equal labels);
- a tiny GPT-2 trained from scratch (``--model_type gpt2 --config_overrides ...``), evaluated every few steps inside
  ``train()`` and once more at the end.

The plain run is ``python run_clm.py ...``; the guarded run is ``gradmode-run python run_clm.py ...`` with
``GRADMODE_GUARD=raise`` (any finding stops it), every Trainer guarded through the launcher. Both run in a venv that
reuses this interpreter's site-packages and adds ``datasets`` and ``evaluate``, with the wheel of this checkout.

It fails unless both runs exit 0, the guards checked evaluation batches (read from the guard's spool, as
``pytest --gradmode`` reads it) with no violation, and every metric the script saved (``all_results.json``, and the
values of ``trainer_state.json``'s log history) is bitwise the same in both runs, timings aside.

Usage (from the repository root, with the project's environment)::

    .venv/bin/python scripts/check_hf_example.py \
        --script ~/src/transformers/examples/pytorch/language-modeling/run_clm.py
    .venv/bin/python scripts/check_hf_example.py --script run_clm.py --out docs/hf_example.json --keep

Exit status: 0 when both runs match and the guarded one is clean; 1 otherwise; 2 when the setup failed.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any, Final

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _acceptance as acceptance
from _acceptance import SetupError, checked, progress, run

#: What the script needs beyond this environment (transformers' examples/pytorch/language-modeling/requirements.txt).
PACKAGES: Final[tuple[str, ...]] = ("datasets>=2.14.0", "evaluate")
OFFLINE: Final[dict[str, str]] = {
    "HF_HUB_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
    "HF_DATASETS_OFFLINE": "1",
    "HF_EVALUATE_OFFLINE": "1",
    "CUDA_VISIBLE_DEVICES": "",
    "TOKENIZERS_PARALLELISM": "false",
}
#: Fields of the saved metrics that are timings: the only ones allowed to differ.
TIMING_WORDS: Final[tuple[str, ...]] = ("runtime", "per_second")

_WORDS: Final[tuple[str, ...]] = (
    *("the", "a", "one", "red", "blue", "small", "large", "cat", "dog", "bird", "fish"),
    *("runs", "sees", "eats", "likes", "near", "over", "under", "with", "and", "quickly"),
)
#: The tokenizer's vocabulary: its special tokens, then the corpus's words.
_VOCAB: Final[dict[str, int]] = {word: i for i, word in enumerate(("[UNK]", "[EOS]", ".", *_WORDS))}

_ACCURACY: Final[str] = '''"""Accuracy: the fraction of predictions equal to their references."""

import datasets
import evaluate


class Accuracy(evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            description="accuracy",
            citation="",
            inputs_description="predictions, references: integer labels",
            features=datasets.Features(
                {"predictions": datasets.Value("int32"), "references": datasets.Value("int32")}
            ),
        )

    def _compute(self, predictions, references):
        equal = sum(int(p == r) for p, r in zip(predictions, references))
        return {"accuracy": float(equal / len(predictions))}
'''


def write_inputs(work: Path, seed: int = 0) -> dict[str, Path]:
    """The corpus, the tokenizer and the local metric; returns their paths."""
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    rng = random.Random(seed)
    data = work / "data"
    data.mkdir(parents=True)
    # Sentences with a pattern a tiny model learns a little of in a few steps (the metrics are not chance).
    for name, lines in (("train", 400), ("validation", 80)):
        text = []
        for _ in range(lines):
            subject = rng.choice(_WORDS[:6])
            text.append(f"{subject} {rng.choice(_WORDS[6:12])} {rng.choice(_WORDS[12:16])} the {subject} .")
        (data / f"{name}.txt").write_text("\n".join(text) + "\n")
    tokenizer = Tokenizer(models.WordLevel(dict(_VOCAB), unk_token="[UNK]"))
    tokenizer.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    fast = PreTrainedTokenizerFast(tokenizer_object=tokenizer, unk_token="[UNK]", eos_token="[EOS]")
    fast.model_max_length = 64
    fast.save_pretrained(work / "tokenizer")
    metric = work / "run" / "accuracy"
    metric.mkdir(parents=True)
    (metric / "accuracy.py").write_text(_ACCURACY)
    return {"data": data, "tokenizer": work / "tokenizer", "cwd": work / "run"}


def script_arguments(paths: dict[str, Path], output_dir: Path, steps: int) -> list[str]:
    return [
        "--model_type", "gpt2",
        "--config_overrides", f"vocab_size={len(_VOCAB)},n_embd=32,n_layer=2,n_head=2,n_positions=64,"
        "bos_token_id=1,eos_token_id=1",
        "--tokenizer_name", str(paths["tokenizer"]),
        "--train_file", str(paths["data"] / "train.txt"),
        "--validation_file", str(paths["data"] / "validation.txt"),
        "--block_size", "32",
        "--do_train", "--do_eval",
        "--max_steps", str(steps),
        "--eval_strategy", "steps", "--eval_steps", str(max(1, steps // 2)),
        "--per_device_train_batch_size", "4", "--per_device_eval_batch_size", "4",
        "--learning_rate", "1e-3",
        "--logging_steps", "5",
        "--save_strategy", "no",
        "--report_to", "none",
        "--seed", "0", "--data_seed", "0",
        "--dataloader_num_workers", "0",
        "--disable_tqdm", "true",
        "--output_dir", str(output_dir),
    ]  # fmt: skip


def saved_metrics(output_dir: Path) -> dict[str, Any]:
    """What the script saved that is not a timing: ``all_results.json`` and the log history's values."""
    results = json.loads((output_dir / "all_results.json").read_text())
    history = json.loads((output_dir / "trainer_state.json").read_text())["log_history"]

    def kept(row: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in row.items() if not any(word in k for word in TIMING_WORDS)}

    return {"all_results": kept(results), "log_history": [kept(row) for row in history]}


def same(a: Any, b: Any) -> bool:
    """Bitwise equality of JSON values: floats by their exact binary value (NaN equal to NaN, 0.0 not to -0.0)."""
    if isinstance(a, float) and isinstance(b, float):
        return a.hex() == b.hex()
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return bool(a == b)


def spooled(folder: Path) -> tuple[int, int, list[dict[str, Any]]]:
    """Stage runs, batches checked and violations the guarded run's guards spooled (as ``pytest --gradmode`` reads
    them)."""
    from gradmode_plugin.spool import SpoolReader

    events = SpoolReader(folder).read()
    runs = [e for e in events if e.get("event") == "end_run"]
    violations = [e for e in events if e.get("event") == "violation"]
    return len(runs), sum(int(e.get("batches", 0)) for e in runs), violations


def check(args: argparse.Namespace, work: Path) -> int:
    script = args.script.resolve()
    if not script.is_file():
        raise SetupError(f"--script {script} is not a file")
    wheel = acceptance.build_wheel(args.project.resolve(), work, ("console_scripts",))
    progress(f"built {wheel.name}")
    logs = work / "logs"
    reuse = acceptance.reused_site_packages(work / "reused-site-packages")
    pins = acceptance.pin_distributions(work / "constraints.txt")
    venv = work / "venv"
    acceptance.make_venv(venv, reuse, logs, list(PACKAGES), wheel, constraints=pins)
    python = venv / "bin" / "python"
    code = (
        "import transformers as a, datasets as b, evaluate as c, torch as d\n"
        "print(a.__version__, b.__version__, c.__version__, d.__version__)"
    )
    found = checked(run([python, "-c", code], work, logs / "versions.log"), "importing datasets and evaluate")
    versions = found.output.strip().splitlines()[-1].split()
    progress("venv ready: transformers {}, datasets {}, evaluate {}, torch {}".format(*versions))
    paths = write_inputs(work)
    env = {**acceptance.venv_environ(venv), **OFFLINE, "HF_HOME": str(work / "hf-home")}
    results: dict[str, Any] = {}
    for name in ("plain", "guarded"):
        output_dir = work / f"out-{name}"
        command: list[str | Path] = [python, script, *script_arguments(paths, output_dir, args.steps)]
        run_env = dict(env)
        if name == "guarded":
            spool = work / "spool"
            spool.mkdir()
            command = [venv / "bin" / "gradmode-run", *command]
            run_env.update(GRADMODE_GUARD="raise", GRADMODE_SPOOL=str(spool), GRADMODE_SPOOL_TEST="run_clm.py")
        result = run(command, paths["cwd"], logs / f"{name}.log", env=run_env, timeout=args.timeout)
        progress(f"{name} run: {result.status()} in {result.seconds:.0f}s, log {result.log}")
        if not result.ok:
            progress(f"the {name} run failed:\n{result.tail()}")
            return 1
        results[name] = saved_metrics(output_dir)
    runs, batches, violations = spooled(work / "spool")
    equal = same(results["plain"], results["guarded"])
    summary = {
        "script": script.name,
        "transformers": versions[0],
        "datasets": versions[1],
        "evaluate": versions[2],
        "torch": versions[3],
        "steps": args.steps,
        "evaluations_checked": runs,
        "batches_checked": batches,
        "violations": len(violations),
        "metrics_bitwise_equal": equal,
        "plain": results["plain"]["all_results"],
        "guarded": results["guarded"]["all_results"],
    }
    print(json.dumps(summary, indent=2))
    if args.out is not None:
        args.out.write_text(json.dumps(summary, indent=2) + "\n")
    return 0 if equal and runs > 0 and batches > 0 and not violations else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument(
        "--script", type=Path, required=True, help="transformers' examples/pytorch/language-modeling/run_clm.py"
    )
    parser.add_argument("--steps", type=int, default=20, help="training steps (default 20; evaluation every steps/2)")
    parser.add_argument("--workdir", type=Path, default=None, help="where everything goes (default: a temporary one)")
    parser.add_argument("--keep", action="store_true", help="keep the work directory")
    parser.add_argument("--timeout", type=float, default=900, help="seconds per run (default 900)")
    parser.add_argument("--out", type=Path, default=None, help="write the summary as JSON here")
    parser.add_argument("--project", type=Path, default=acceptance.PROJECT, help="the source tree of the wheel")
    args = parser.parse_args(argv)
    return acceptance.run_check(args, "gradmode-hf-example-", check)


if __name__ == "__main__":
    sys.exit(main())
