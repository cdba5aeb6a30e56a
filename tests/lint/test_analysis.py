"""Every rule, from files on disk through the command line: each alias form of the bug is found on its line
(``# expect: CODE``), and the correct counterparts stay silent."""

from __future__ import annotations

from pathlib import Path

import pytest

from gradmode_plugin.lint.analysis import check_source
from tests.helpers.lint import LintRun, expected_findings, linted_tree

# One file per case; every marked line must be found with that code, and nothing else in the file.
BUGS: dict[str, str] = {
    "gm101_aliases.py": """
        import torch
        import torch.nn.functional
        import torch.nn.functional as F
        from torch import nn
        from torch.nn import functional as nnf
        from torch.nn.functional import dropout


        def forward(x):
            x = F.dropout(x, 0.5)  # expect: GM101
            x = nnf.dropout1d(x, p=0.1)  # expect: GM101
            x = dropout(x)  # expect: GM101
            x = torch.nn.functional.dropout3d(x)  # expect: GM101
            x = nn.functional.dropout2d(x, p=0.3)  # expect: GM101
            x = F.dropout(  # expect: GM101
                x,
                p=0.1,
            )
            return x


        class Block(nn.Module):
            def forward(self, x):
                return F.dropout(x, self.p)  # expect: GM101
        """,
    "gm101_import_as.py": """
        from torch.nn.functional import dropout2d as drop2d


        def forward(x):
            return drop2d(x, 0.2)  # expect: GM101
        """,
    "gm102_gm103_training_true.py": """
        import torch
        import torch.nn.functional as F
        from torch.nn import functional as nnf

        ALWAYS = True


        def forward(x):
            x = F.dropout(x, 0.5, True)  # expect: GM102
            x = F.dropout(x, training=True)  # expect: GM102
            x = F.alpha_dropout(x, 0.1, training=True)  # expect: GM102
            x = nnf.feature_alpha_dropout(x, 0.1, True)  # expect: GM102
            x = F.dropout(x, 0.2, training=ALWAYS)  # expect: GM102
            x = torch.dropout(x, 0.1, True)  # expect: GM103
            x = torch.feature_dropout(x, 0.1, train=True)  # expect: GM103
            return torch.alpha_dropout_(x, 0.1, True)  # expect: GM103
        """,
    "gm104_sdpa.py": """
        import torch
        import torch.nn.functional as F
        from torch import nn


        class Attention(nn.Module):
            def forward(self, q, k, v):
                a = F.scaled_dot_product_attention(q, k, v, dropout_p=self.dropout_p)  # expect: GM104
                b = F.scaled_dot_product_attention(q, k, v, None, self.attn_drop.p)  # expect: GM104
                p = self.p
                c = torch.nn.functional.scaled_dot_product_attention(q, k, v, dropout_p=p)  # expect: GM104
                d = F.scaled_dot_product_attention(q, k, v, dropout_p=0.1)  # expect: GM104
                p2 = self.p if self.use_dropout else 0.0
                return a, b, c, d, F.scaled_dot_product_attention(q, k, v, dropout_p=p2)  # expect: GM104
        """,
    "gm104_sdpa_import_as.py": """
        from torch.nn.functional import scaled_dot_product_attention as sdpa


        def attend(self, q, k, v):
            return sdpa(q, k, v, dropout_p=self.p)  # expect: GM104
        """,
    "gm201_train_in_evaluation.py": """
        import lightning.pytorch as pl


        class Model(pl.LightningModule):
            def validation_step(self, batch, batch_idx):
                self.backbone.train()  # expect: GM201
                self.head.train(True)  # expect: GM201
                self.neck.train(mode=True)  # expect: GM201

            def test_step(self, batch, batch_idx):
                self.train()  # expect: GM201

            def predict_step(self, batch):
                model = self.model.train()  # expect: GM201
                return model(batch)

            def on_validation_epoch_start(self):
                self.bn.train()  # expect: GM201

            def on_test_batch_end(self, *args):
                self._shared_eval()

            def on_predict_start(self):
                self._shared_eval()

            def _shared_eval(self):
                self.dropout.train()  # expect: GM201


        class Watch(pl.Callback):
            def on_validation_batch_start(self, trainer, pl_module, batch, batch_idx):
                pl_module.train()  # expect: GM201

            def on_validation_batch_end(self, trainer, pl_module, outputs, batch, batch_idx):
                pl_module.train()  # expect: GM201

            # After the last batch: Lightning puts the modes back itself, nothing evaluated follows.
            def on_validation_end(self, trainer, pl_module):
                pl_module.train()

            def on_test_epoch_end(self, trainer, pl_module):
                pl_module.backbone.train()
        """,
    "gm3_gradients_in_evaluation.py": """
        import torch
        from lightning.pytorch import LightningModule
        from torch import enable_grad


        class Model(LightningModule):
            def validation_step(self, batch, batch_idx):
                with torch.enable_grad():  # expect: GM301
                    pass
                with torch.set_grad_enabled(True):  # expect: GM301
                    pass
                with enable_grad():  # expect: GM301
                    pass
                with torch.autograd.grad_mode.enable_grad():  # expect: GM301
                    loss = self(batch)
                    loss.backward()  # expect: GM303

            @torch.enable_grad()  # expect: GM302
            def test_step(self, batch, batch_idx):
                return self(batch)

            @torch.set_grad_enabled(True)  # expect: GM302
            def predict_step(self, batch):
                return self(batch)

            def on_test_batch_end(self, outputs, *args):
                self.manual_backward(outputs)  # expect: GM303
                torch.autograd.backward(outputs)  # expect: GM303
        """,
    "gm401_statement.py": """
        import torch


        def hook():
            torch.set_grad_enabled(False)  # expect: GM401
            run()
            torch.set_grad_enabled(True)  # expect: GM401


        class Callback:
            def on_validation_batch_start(self, *args):
                torch.autograd.set_grad_enabled(True)  # expect: GM401


        def log_without_gradients(path):
            with open(path) as file:  # no grad-mode context: nothing puts the mode back
                torch.set_grad_enabled(False)  # expect: GM401
                file.write("off")


        def embed(model, items):
            with torch.no_grad():  # its exit puts back the mode found on entry
                torch.set_grad_enabled(False)
                return model(items)


        @torch.inference_mode()
        def embed_all(model, items):
            torch.set_grad_enabled(False)
            return model(items)


        def step(model, batch, train):
            with torch.set_grad_enabled(train):
                torch.set_grad_enabled(True)
                return model(batch)


        def perturb(model, x):
            with torch.enable_grad():
                torch.set_grad_enabled(False)
                return model(x)
        """,
    "gm402_inert_call.py": """
        import torch
        from torch import no_grad


        class SurvivalModel:
            def predict_mean(self, x):
                self.model.eval()
                torch.no_grad()  # expect: GM402
                return self.model(x).detach().numpy()  # expect: GM501

            def predict_cdf(self, x):
                no_grad()  # expect: GM402
                torch.inference_mode()  # expect: GM402
                return self.model(x)  # expect: GM501


        def sample(model, z):
            torch.inference_mode(True)  # expect: GM402
            return model.decode(z)
        """,
    "gm501_eval_loops.py": """
        import torch
        from torch import nn


        def evaluate(model, loader):
            model.eval()
            for x in loader:
                model(x)  # expect: GM501


        def evaluate_attribute(self, loader):
            self.model.eval()
            return [self.model(x) for x in loader]  # expect: GM501


        def predict(net, x):
            net = net.to("cpu").eval()
            return net.forward(x)  # expect: GM501


        def autocast_only(model, x):
            model.eval()
            with torch.autocast("cpu"):
                return model(x)  # expect: GM501


        class Wrapper(nn.Module):
            def posterior(self, x):
                self.eval()
                return self(x)  # a module's own API: its caller decides whether the output is differentiated

            def predict(self, x):
                self.eval()
                return self(x)  # expect: GM501

            def predict_all(self, xs):
                self.eval()
                return [self(x) for x in xs]  # expect: GM501


        model = torch.load("model.pt")
        model.eval()
        out = model(torch.ones(1))  # expect: GM501
        """,
    "gm501_other_framework_beside_torch.py": """
        import paddle
        import torch


        def detect(net, image):
            net.eval()
            return net(image)  # expect: GM501
        """,
    "gm501_rebound_from_itself.py": """
        import torch
        from torch import nn


        def predict(model, x):
            model.eval()
            model = model.half()
            return model(x)  # expect: GM501


        def predict_parallel(model, x):
            model.eval()
            model = nn.DataParallel(model)
            return model(x)  # expect: GM501


        def predict_either(model, x, exported):
            model.eval()
            if exported:
                model = OnnxModel("model.onnx")
                return model(x)
            else:
                return model(x)  # expect: GM501


        class Runner:
            def predict(self, x):
                self.model.eval()
                self.model = self.model.to("cpu")
                return self.model(x)  # expect: GM501

            def predict_later(self, x):
                self.model.eval()
                out = self.model(x)  # expect: GM501
                self.model = nn.Linear(2, 2)
                return out
        """,
    "gm501_method_behind_a_flag.py": """
        import torch


        class Continual:
            def begin_task(self, dataset):
                if self.args.imprint_weights:
                    self.imprint_weights(dataset)

            def imprint_weights(self, dataset):
                self.net.eval()
                return [self.net(x) for x in dataset]  # expect: GM501
        """,
    "gm601_volatile.py": """
        import torch
        from torch.autograd import Variable
        from torch.autograd.variable import Variable as V


        def wrap(x):
            a = Variable(x, volatile=True)  # expect: GM601
            b = torch.autograd.Variable(x, volatile=True)  # expect: GM601
            return a, b, V(x, volatile=True)  # expect: GM601
        """,
    "gm7_parameter_updates.py": """
        import torch


        def sgd(model, lr):
            for p in model.parameters():
                p -= lr * p.grad  # expect: GM701


        def sgd_named(model, lr):
            for name, p in model.named_parameters():
                p.add_(p.grad, alpha=-lr)  # expect: GM701


        def sgd_groups(optimizer, lr):
            for group in optimizer.param_groups:
                for p in group["params"]:
                    p.sub_(lr * p.grad)  # expect: GM701


        def rebinding(model, lr):
            for p in model.parameters():
                p = p - lr * p.grad  # expect: GM702


        def clipping(model, max_norm):
            norm = torch.norm(torch.stack([p.norm() for p in model.parameters()]))
            for p in model.parameters():
                p.grad.mul_(max_norm / norm)  # expect: GM703


        def clipping_augmented(model):
            params = list(model.parameters())
            for p in params:
                p.grad *= 1.0 / p.norm()  # expect: GM703
        """,
    "gm801_threads.py": """
        import threading
        from concurrent.futures import ThreadPoolExecutor

        import torch
        from lightning.pytorch import LightningModule


        class Model(LightningModule):
            def predict_step(self, batch):
                with ThreadPoolExecutor(2) as pool:
                    futures = [pool.submit(self._embed, x) for x in batch]  # expect: GM801
                    list(pool.map(self._embed, batch))  # expect: GM801
                threading.Thread(target=self._embed, args=(batch,)).start()  # expect: GM801
                return futures

            def _embed(self, x):
                return self.net(x)


        @torch.no_grad()
        def evaluate(model, batches):
            def work(x):
                return model(x)

            pool = ThreadPoolExecutor()
            return list(pool.map(work, batches))  # expect: GM801


        def evaluate_inference(model, batches):
            with torch.inference_mode():
                threading.Thread(target=lambda: model(batches[0])).start()  # expect: GM801
        """,
}

# The correct counterparts: nothing may be found in these.
CORRECT: dict[str, str] = {
    # grad-mode context managers entered, applied or kept to be entered later; set_grad_enabled is GM401's
    "gm402_contexts_used.py": """
        import contextlib

        import torch


        @torch.no_grad()
        def predict(model, x):
            return model(x)


        def predict_all(model, xs, fast):
            context = torch.inference_mode() if fast else torch.no_grad()
            with context:
                return [model(x) for x in xs]


        def enter_by_hand(model, x):
            guard = torch.no_grad()
            guard.__enter__()
            try:
                return model(x)
            finally:
                guard.__exit__(None, None, None)


        def stacked(model, x):
            with contextlib.ExitStack() as stack:
                stack.enter_context(torch.no_grad())
                return model(x)


        def train_step(model, optimizer, x):
            # a dropped `enable_grad()` or `inference_mode(False)` turns nothing off: gradients are as they were
            torch.enable_grad()
            torch.inference_mode(False)
            loss = model(x).sum()
            loss.backward()
            optimizer.step()
        """,
    "ok_dropout.py": """
        import torch
        import torch.nn.functional as F
        from torch import nn
        from torch.nn import functional as nnf


        class Fine(nn.Module):
            def forward(self, x, q, k, v, training, dropout_p, **kwargs):
                x = F.dropout(x, 0.5, self.training)
                x = F.dropout(x, p=0.5, training=self.training)
                x = F.dropout(x, training=self.training and self.enabled)
                x = F.dropout(x, training=training)
                x = F.dropout(x, **kwargs)
                x = F.dropout(x, p=0)  # a rate of 0 drops nothing, whatever the mode
                x = nnf.dropout2d(x, 0.0)
                x = torch.dropout(x, 0, True)
                x = F.alpha_dropout(x, 0.1)
                x = nnf.feature_alpha_dropout(x)
                x = torch.dropout(x, 0.1, self.training)
                x = self.dropout(x)
                if self.training:
                    x = F.dropout(x, 0.5)
                    x = torch.dropout(x, 0.5, True)
                a = F.scaled_dot_product_attention(q, k, v)
                a = F.scaled_dot_product_attention(q, k, v, dropout_p=0.0)
                a = F.scaled_dot_product_attention(q, k, v, None, 0)
                a = F.scaled_dot_product_attention(q, k, v, dropout_p=self.p if self.training else 0.0)
                p = self.p if self.training else 0
                a = F.scaled_dot_product_attention(q, k, v, dropout_p=p)
                dropout = 0.0 if not self.training else self.attention_dropout
                a = F.scaled_dot_product_attention(q, k, v, dropout_p=dropout)
                a = F.scaled_dot_product_attention(q, k, v, dropout_p=dropout_p)
                r = self.p
                if not self.training:
                    r = 0.0
                return x, a, F.scaled_dot_product_attention(q, k, v, dropout_p=r)

            def eager(self, q, k, v):
                if not self.training:
                    return F.scaled_dot_product_attention(q, k, v)
                return F.scaled_dot_product_attention(q, k, v, dropout_p=self.p)


        def sdpa_attention_forward(module, query, key, value, dropout=0.0):
            return F.scaled_dot_product_attention(query, key, value, dropout_p=dropout)


        def attention(self, q, k, v, attention_interface):
            return attention_interface(self, q, k, v, dropout=0.0 if not self.training else self.attention_dropout)
        """,
    "ok_train_mode.py": """
        import lightning.pytorch as pl


        class Model(pl.LightningModule):
            def training_step(self, batch, batch_idx):
                self.backbone.train()
                return self._shared(batch)

            def validation_step(self, batch, batch_idx):
                self.head.train(False)
                self.head.train(mode=False)
                return self._shared(batch)

            def _shared(self, batch):
                self.net.train()
                return self(batch)

            def on_validation_model_train(self):
                self.train()

            def on_test_model_train(self):
                self.train()

            def on_predict_model_train(self):
                self.train()
        """,
    "ok_gradients.py": """
        import torch
        from lightning.pytorch import LightningModule

        from gradmode_plugin import allow_grad


        class Model(LightningModule):
            def training_step(self, batch, batch_idx):
                with torch.enable_grad():
                    loss = self(batch)
                loss.backward()

            def validation_step(self, batch, batch_idx):
                with allow_grad("saliency"):
                    with torch.enable_grad():
                        x = batch.requires_grad_()
                        self(x).sum().backward()
                with allow_grad("input gradients"), torch.enable_grad():
                    pass
                with torch.set_grad_enabled(self.training):
                    pass
                with torch.set_grad_enabled(False):
                    pass

            @torch.no_grad()
            def test_step(self, batch, batch_idx):
                return self(batch)


        @torch.enable_grad()
        def attack(model, x):
            x = x.requires_grad_()
            model(x).sum().backward()
            return x.grad
        """,
    "ok_grad_mode_statements.py": """
        import torch

        torch.set_grad_enabled(False)  # a script's switch for the whole run


        def run(phase, model, x):
            with torch.set_grad_enabled(phase == "train"):
                model(x)
            previous = torch.is_grad_enabled()
            torch.set_grad_enabled(False)
            try:
                model(x)
            finally:
                torch.set_grad_enabled(previous)


        class NoGrad:
            def __enter__(self):
                self.previous = torch.is_grad_enabled()
                torch.set_grad_enabled(False)

            def __exit__(self, *exc):
                torch.set_grad_enabled(self.previous)


        @torch.set_grad_enabled(False)
        def decorated(model, x):
            return model(x)
        """,
    "ok_eval_loops.py": """
        import torch
        from lightning.pytorch import LightningModule


        def evaluate(model, loader):
            model.eval()
            with torch.no_grad():
                for x in loader:
                    model(x)
            model.train()


        def evaluate_inference(model, loader):
            model.eval()
            with torch.inference_mode():
                return [model(x) for x in loader]


        @torch.no_grad()
        def evaluate_decorated(model, x):
            model.eval()
            return model(x)


        @torch.inference_mode()
        def evaluate_inference_decorated(model, x):
            model.eval()
            return model(x)


        def evaluate_set(model, x):
            model.eval()
            with torch.set_grad_enabled(False):
                return model(x)


        def fit(model, loader, opt):
            model.eval()
            with torch.no_grad():
                model(loader[0])
            model.train()
            for x in loader:
                opt.step(model(x))


        def saliency(model, x):
            model.eval()
            x.requires_grad_()
            model(x).sum().backward()
            return x.grad


        def export(model, x):
            traced = torch.jit.trace(model.eval(), x)
            return traced(x)


        def run(model, x, context):
            model.eval()
            with context():
                return model(x)


        def compare(model, x, grad_mode):
            context = torch.no_grad if grad_mode == "no_grad" else torch.inference_mode
            model.eval()
            with context():
                return model(x)


        class Model(LightningModule):
            def validation_step(self, batch, batch_idx):
                self.eval()
                return self(batch)
        """,
    "ok_volatile.py": """
        import torch
        from torch.autograd import Variable


        def wrap(x):
            return Variable(x), Variable(x, requires_grad=True), Variable(x, volatile=False)


        def evaluate(model, x):
            model.eval()
            with torch.no_grad():
                return model(Variable(x, volatile=True))  # a no-op, where nothing more is needed


        @torch.no_grad()
        def predict(model, x):
            model.eval()
            return model(Variable(x, volatile=True))
        """,
    "ok_rebound.py": """
        import onnxruntime
        import torch
        from torch import nn


        def demo(x):
            model = nn.Sequential(nn.Linear(2, 2), nn.Dropout(0.5))
            model.eval()
            model = nn.Sequential(nn.Linear(2, 2), nn.Dropout(0.5))  # a new module, in training mode
            return model(x)


        def compare_with_onnx(x, path):
            model = torch.load(path)
            model.eval()
            with torch.no_grad():
                expected = model(x)
            session = onnxruntime.InferenceSession("model.onnx")
            model = lambda t: session.run(None, {"x": t.numpy()})[0]
            return expected, model(x)


        class Runner:
            def swap(self, x):
                self.model.eval()
                self.model = Net()
                return self.model(x)
        """,
    "ok_other_framework.py": """
        import paddle
        from paddle import nn


        def detect(net, image):
            net.eval()  # paddle's: torch's no_grad would not turn its gradients off
            return net(image)
        """,
    "ok_method_behind_a_flag.py": """
        import torch


        class Continual:
            def begin_task(self, dataset):
                with torch.no_grad():
                    if self.args.imprint_weights and not self.args.frozen:
                        self.imprint_weights(dataset)

            def imprint_weights(self, dataset):
                self.net.eval()
                return [self.net(x) for x in dataset]
        """,
    "ok_parameter_updates.py": """
        import torch


        def sgd(model, lr):
            with torch.no_grad():
                for p in model.parameters():
                    p -= lr * p.grad


        @torch.no_grad()
        def sgd_decorated(model, lr):
            for p in model.parameters():
                p.add_(p.grad, alpha=-lr)


        def sgd_data(model, lr):
            for p in model.parameters():
                p.data.add_(p.grad, alpha=-lr)


        def read_only(model):
            for p in model.parameters():
                p = p.detach()
                print(p)


        def clip(model):
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)


        def clip_by_gradient_norm(model, max_norm):
            total = torch.norm(torch.stack([p.grad.norm() for p in model.parameters()]))
            for p in model.parameters():
                p.grad.mul_(max_norm / (total + 1e-6))


        def zero(model):
            for p in model.parameters():
                p.grad.zero_()


        def clip_no_grad(model, max_norm):
            with torch.no_grad():
                norm = torch.norm(torch.stack([p.norm() for p in model.parameters()]))
                for p in model.parameters():
                    p.grad.mul_(max_norm / norm)
        """,
    "ok_threads.py": """
        import functools
        import threading
        from concurrent.futures import ThreadPoolExecutor

        import torch
        from lightning.pytorch import LightningModule


        class Model(LightningModule):
            def predict_step(self, batch):
                with ThreadPoolExecutor(2) as pool:
                    out = list(pool.map(self._embed, batch))
                threading.Thread(target=self._embed_inference).start()
                threading.Thread(target=functools.partial(self._embed, batch)).start()
                return out

            @torch.no_grad()
            def _embed(self, x):
                return self.net(x)

            def _embed_inference(self):
                with torch.inference_mode():
                    return self.net(self.x)


        def train(model, batches):
            with ThreadPoolExecutor() as pool:
                return list(pool.map(model, batches))


        def load(paths):
            with torch.no_grad(), ThreadPoolExecutor() as pool:
                return list(pool.map(open, paths))
        """,
}


@pytest.fixture(scope="module")
def bugs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, LintRun]:
    return linted_tree(tmp_path_factory.mktemp("lint") / "bugs", BUGS)


@pytest.fixture(scope="module")
def correct(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, LintRun]:
    return linted_tree(tmp_path_factory.mktemp("lint") / "correct", CORRECT)


@pytest.mark.parametrize("name", sorted(BUGS))
def test_each_bug_is_found_on_its_line(bugs: tuple[Path, LintRun], name: str) -> None:
    root, run = bugs
    expected = {found for found in expected_findings(root) if found[0] == name}
    assert expected, f"{name} marks no expected finding"
    assert {found for found in run.findings() if found[0] == name} == expected, run.stdout


def test_findings_exit_1(bugs: tuple[Path, LintRun]) -> None:
    _, run = bugs
    assert run.returncode == 1, run.stderr
    assert f"{len(run.findings())} finding(s) in {len(BUGS)} file(s)" in run.stderr


@pytest.mark.parametrize("name", sorted(CORRECT))
def test_correct_counterparts_stay_silent(correct: tuple[Path, LintRun], name: str) -> None:
    _, run = correct
    assert not {found for found in run.findings() if found[0] == name}, run.stdout


def test_clean_code_exits_0(correct: tuple[Path, LintRun]) -> None:
    _, run = correct
    assert run.returncode == 0 and run.stdout == "", run.stdout + run.stderr


def test_the_message_names_the_fix(bugs: tuple[Path, LintRun]) -> None:
    _, run = bugs
    line = next(line for line in run.stdout.splitlines() if line.startswith("gm101_aliases.py:10:"))
    assert line == (
        "gm101_aliases.py:10:9: GM101 `F.dropout` without `training=` drops activations in evaluation too "
        "(`training` defaults to True): pass `training=self.training`"
    )


def test_an_inert_no_grad_is_quiet_in_test_code_by_default() -> None:
    """``torch.no_grad()`` as a statement in a test class: the graph it fails to prevent costs a test nothing, so
    GM402 is quiet in test code unless ``tests = true``, as GM501 is."""
    source = "import torch\n\n\nclass TestCovariance:\n    torch.no_grad()\n"
    assert [f.code for f in check_source(source, "tests/test_covariance.py")] == []
    assert [f.code for f in check_source(source, "tests/test_covariance.py", tests=True)] == ["GM402"]


#: Assignments chained one per layer, as in a generated model's ``forward``: more than Python's stack would allow
#: the data-flow walk if it recursed once per assignment.
_CHAIN = 1500


def _chained(last: str) -> str:
    steps = "".join(f"    x{i + 1} = layer(x{i})\n" for i in range(_CHAIN))
    return f"import torch\n\n\ndef run(model, layer, x0):\n    model.eval()\n    x0 = model(x0)\n{steps}{last}"


def test_a_long_chain_of_assignments_detached_at_its_end_is_followed() -> None:
    """A generated model's thousand-line ``forward`` is analysed, not given up as "nested too deeply": the forward
    after ``eval()`` whose output, layer after layer, is only detached at the end is found."""
    source = _chained(f"    return x{_CHAIN}.detach()\n")
    assert [(f.code, f.line) for f in check_source(source, "generated.py")] == [("GM501", 6)]


def test_a_long_chain_of_assignments_differentiated_at_its_end_is_followed() -> None:
    """The same chain ending in ``backward()``: the forward's graph is differentiated, so it is silent."""
    source = _chained(f"    x{_CHAIN}.sum().backward()\n")
    assert check_source(source, "generated.py") == []
