"""What code the linter was not written for looks like (research scripts, libraries and their test suites): each
shape of a real bug is found on its line (``# expect: CODE``), and the correct code that looks like it stays silent.
From files on disk (in folders: a test folder, a package) through the command line."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.lint import EPOCH_BY_FLAG, LintRun, expected_findings, linted_tree, run_lint

#: A class whose own loader method puts the model in eval() and stores it on self (its bug and its look-alikes add
#: the methods that run it).
STORED_LOADER = """
        import torch


        class Predictor:
            def __init__(self, path):
                self.model = self._load(path)

            def _load(self, path):
                model = torch.load(path)
                model.eval()
                return model
"""

#: A training epoch function shared with evaluation: `training=False` skips its backward (its bug and look-alike add
#: the callers).
SHARED_EPOCH = """
        import torch


        def backprop(model, data, optimizer, training=True):
            if training:
                for d in data:
                    loss = model(d).sum()
                    optimizer.zero_grad()
                    loss.backward()
                    optimizer.step()
                return loss.item()
            outputs = [model(d) for d in data]
            return torch.stack(outputs).detach().numpy()
"""
#: Functional attention in torch's style: the caller adjusts the rate for evaluation, the helper drops by it
#: (``{zeroed}``: the name set to 0 outside training; ``{after}``: what the caller does next; ``{expect}``: the
#: helper's line's expectation).
FUNCTIONAL_ATTENTION = """
        import torch
        import torch.nn.functional as F
        from torch import nn


        def _attention(q, k, v, dropout_p=0.0):
            attn = F.softmax(q @ k.transpose(-2, -1), dim=-1)
            if dropout_p > 0.0:
                attn = F.dropout(attn, p=dropout_p){expect}
            return attn @ v


        def attention_forward(q, k, v, dropout_p, training=True):
            if not training:
                {zeroed} = 0.0
{after}            return _attention(q, k, v, dropout_p)


        class Attention(nn.Module):
            def __init__(self, dropout=0.1):
                super().__init__()
                self.dropout = dropout

            def forward(self, q, k, v):
                return attention_forward(q, k, v, self.dropout, training=self.training)
"""
#: A tracker whose forward returns four values, validated by a loop that unpacks its output (``{unpack}``; ``{expect}``:
#: the forwards' expectation).
TRACKER_VALIDATION = """
        import torch
        from torch import nn


        class Tracker(nn.Module):
            def __init__(self):
                super().__init__()
                self.layer = nn.Linear(4, 4)
                self.drop = nn.Dropout(0.1)

            def forward(self, x, state):
                h = self.drop(self.layer(x))
                return h.sigmoid(), h, h, h.softmax(-1)


        def validate(model, sequences):
            model.eval()
            for frames in sequences:
                scores = None
                {unpack} = model(frames[0], None){expect}
                for frame in frames[1:]:
                    scores = model(frame, scores){expect}


        if __name__ == "__main__":
            model = Tracker()
            validate(model, torch.load("sequences.pt"))
"""
#: Lightning steps that set the grad mode as a statement (``{train}``/``{val}``: the mode each sets; ``{*_expect}``: its
#: line's expectation).
LIGHTNING_STEPS_SET_GRAD = """
        import lightning as L
        import torch
        from torch import nn


        class Segmenter(L.LightningModule):
            def __init__(self):
                super().__init__()
                self.net = nn.Sequential(nn.Conv2d(3, 2, 3), nn.BatchNorm2d(2))

            def training_step(self, batch, batch_idx):
                self.net.train()
                torch.set_grad_enabled({train}){train_expect}
                return self.net(batch).mean()

            def validation_step(self, batch, batch_idx):
                self.net.eval()
                torch.set_grad_enabled({val}){val_expect}
                self.log("val", self.net(batch).mean())
"""
#: A competition template's evaluation that turns gradients off as a statement, called between training epochs
#: (``{reset}``: what each training step does with grad mode first; ``{expect}``: the statement's expectation).
TEMPLATE_EVAL_LEAKS_OFF = """
        import torch


        def run_eval(model, loader):
            model.eval()
            torch.set_grad_enabled(False){expect}
            return sum(model(x).sum().item() for x in loader)


        def train(model, loaders, optimizer, epochs):
            for epoch in range(epochs):
                for x in loaders["train"]:
                    model.train()
{reset}                    loss = model(x).sum()
                    loss.backward()
                    optimizer.step()
                print(epoch, run_eval(model, loaders["val"]))


        if __name__ == "__main__":
            net, data = torch.load("model.pt"), torch.load("loaders.pt")
            train(net, data, torch.optim.SGD(net.parameters(), lr=0.1), 10)
            print(run_eval(net, data["test"]))
"""
#: A closed-loop evaluation that turns gradients off as a statement and back on before it returns, called by a
#: training loop (``{name}``: the function's name, one per file; ``{early}``/``{back}``: what follows the first
#: statement, and the one turning them back on; ``{call}``: how the loop calls it; ``{expect}``: the statements').
EVAL_GIVES_GRAD_BACK = """
        import torch


        def {name}(model, env):
            model.eval()
            torch.set_grad_enabled(False){expect}
{early}            reward = sum(model(obs).sum().item() for obs in env)
{back}
            return reward


        def train(model, loader, env, optimizer):
            for x in loader:
                model.train()
                model(x).sum().backward()
                optimizer.step()
{call}
"""
#: The statement that turns gradients back on, at the function's top level (``{expect}``: its expectation).
GIVES_BACK = "            torch.set_grad_enabled(True){expect}"


def gives_grad_back(name: str, *, early: str = "", back: str = GIVES_BACK, call: str = "", expect: str = "") -> str:
    """``EVAL_GIVES_GRAD_BACK`` for a function ``name``, called after the loop unless ``call`` says otherwise."""
    call = call or f"            print({name}(model, env))"
    return EVAL_GIVES_GRAD_BACK.format(
        name=name, early=early, back=back.format(expect=expect), call=call.format(name=name), expect=expect
    )


#: A script whose evaluation puts its module-level model in ``eval()``, called inside the batch loop of a training
#: function that put it in training once, before the loop (``{test_body}``: how the evaluation gets its model;
#: ``{step}``: what each step does first; ``{expect}``: the call's expectation).
GLOBAL_MODEL_EVALUATED_IN_THE_LOOP = """
        import torch


        class Net(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = torch.nn.Linear(4, 2)
                self.drop = torch.nn.Dropout(0.5)

            def forward(self, x):
                return self.drop(self.fc(x))


        model = Net()
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)


        @torch.no_grad()
        def test(data):
{test_body}            model.eval()
            return model(data).argmax(1)


        def train(loader, data):
            model.train()
            for x, y in loader:
{step}                optimizer.zero_grad()
                torch.nn.functional.cross_entropy(model(x), y).backward()
                optimizer.step()
                print(test(data)){expect}
"""


#: A guided sampler that turns gradients on for one gradient step and back off before it returns, called by a
#: sampling loop (``{call}``: how the loop calls it; ``{expect}``: the statements' expectation).
SAMPLER_TAKES_GRAD_BACK = """
        import torch


        def guided_step(model, x, scale):
            torch.set_grad_enabled(True){expect}
            x = x.detach().requires_grad_(True)
            grad = torch.autograd.grad(model(x).sum(), x)[0]
            torch.set_grad_enabled(False){expect}
            return x + scale * grad


        def sample(model, x, steps):
{call}
            return x
"""


#: One epoch function for both phases, its mode chosen by an argument (``{grad}``: what it does with grad mode first).
RUN_EPOCH = """
        import torch


        def run_epoch(model, loader, optimizer, train):
            if train:
                model.train()
            else:
                model.eval()
{grad}            for x in loader:
                loss = model(x).sum()
                if train:
                    loss.backward()
                    optimizer.step()
"""
#: A module class that holds its energy model in ``eval()`` from ``__init__`` (its bug and look-alike add methods
#: that run it).
HELD_ENERGY = """
        import torch


        class Scorer(torch.nn.Module):
            def __init__(self, energy):
                super().__init__()
                self.energy = energy
                self.energy.eval()
"""
#: A training function whose nested ``valid_fn`` puts the model in ``eval()`` and runs it, called under ``no_grad``
#: after each epoch (``{expect}``: the forward's expectation; ``{helpers}``: more nested functions; the bug and its
#: look-alike add what the epoch loop does next).
NESTED_VALIDATION = """
        import torch


        def main(model, loader, valid_loader):
            def valid_fn(data):
                model.eval()
                for x in data:
                    out = model(x){expect}
                return out
{helpers}
            for epoch in range(3):
                model.train()
                for x in loader:
                    model(x).sum().backward()
                with torch.no_grad():
                    valid_fn(valid_loader)
"""
#: A synthesizer whose ``sample`` puts its generator in ``eval()`` and runs it with gradients on, beside a class of
#: the same file with a ``sample`` of its own (its bugs and look-alikes add who calls which ``sample``).
SAMPLERS = """
        import torch

        FAST = False


        class Sampler:
            def sample(self, n):
                return torch.randn(n, 4)


        class Synthesizer:
            def __init__(self):
                self.cond = None
                self.generator = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Dropout(0.1))

            def sample(self, n):
                self.generator.eval()
                return self.generator(torch.randn(n, 4)){expect}


        class Child(Synthesizer):
            pass
"""
#: A Lightning module's sampler that puts itself in ``eval()`` and back in training under a flag (``{flag}``, read from
#: ``{source}``), called from its test step.
FLAGGED_SAMPLER = """
        import lightning.pytorch as pl
        import torch


        class Model(pl.LightningModule):
            def sample_refined(self, x):
                {flag} = {source}
                if {flag}:
                    self.eval()
                with torch.no_grad():
                    out = self.net(x)
                if {flag}:
                    self.train(){expect}
                return out

            def test_step(self, batch, batch_idx):
                return self.sample_refined(batch)
"""
GM201 = "  # expect: GM201"
#: A demo that puts a module in ``eval()`` inside ``print(...)``, then runs it (``{run}``).
PRINTED_EVAL = """
        import torch

        net = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.Dropout(0.1))
        x = torch.ones(2)
        print(net.eval())
        {run}
"""
#: A loader that returns the module it put in ``eval()`` (``model = model.eval()``).
MOVED_LOADER = """
        import torch


        def get_model(path):
            model = torch.load(path)
            model = model.eval()
            return model
"""
#: A function that differentiates what ``sample`` gives, on an object built so (``{built}``).
TUNED = """

        def tune():
            synth = {built}
            synth.sample(4).sum().backward()
"""
#: A loop shared by the training and validation phases, up to each batch (its bug and look-alike add the body).
PHASE_LOOP = """
        import torch


        def train_model(model, loaders, criterion, optimizer, epochs):
            for epoch in range(epochs):
                for phase in ["train", "val"]:
                    if phase == "train":
                        model.train()
                    else:
                        model.eval()
                    for images, labels in loaders[phase]:
"""
#: A distillation loop whose teacher is in eval(), up to the student's forward (its bug and look-alike add the
#: teacher's).
DISTILLING = """
        import torch.nn.functional as F


        def train(student, teacher, loader, optimizer):
            student.train()
            teacher.eval()
            for x, y in loader:
                output = student(x)
"""
#: The step that ends it.
DISTILLING_STEP = """
                loss = F.kl_div(F.log_softmax(output, 1), F.softmax(teacher_output, 1)) + F.cross_entropy(output, y)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
"""
#: An agent that trains its actor and loads a checkpoint for a test run (its bug and look-alike add a method).
AGENT = """
        import torch


        class Agent:
            def __init__(self, actor, optimizer):
                self.actor = actor
                self.optimizer = optimizer

            def update(self, states, returns):
                loss = ((self.actor(states) - returns) ** 2).mean()
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()

            def load_model(self, path):
                self.actor.load_state_dict(torch.load(path))
                self.actor.eval()
"""
#: A training loop over a model built from a block another file of the project defines.
TRAIN = """
        import torch
        from {pkg} import {block}


        class Net(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.block = {block}(8)

            def forward(self, x):
                return self.block(x)


        def main(loader, epochs):
            model = Net().to("cpu")
            optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
            for epoch in range(epochs):
                for x, y in loader:
                    loss = ((model(x) - y) ** 2).mean()
                    optimizer.zero_grad()
                    loss.backward()
                    optimizer.step()
                model.eval(){mark}
                with torch.no_grad():
                    print(sum(model(x).sum() for x, _ in loader))
"""

#: An Inception feature extractor frozen in ``__init__`` and run from ``update``: with gradients on unless torchmetrics
#: runs ``update`` (a ``Metric`` subclass: ``set_grad_enabled(False)`` around it).
INCEPTION_SCORE = """
    import torch
    from torchvision import models
    {header}

    class KernelInceptionDistance{base}:
        def __init__(self):
            super().__init__()
            self.inception = models.inception_v3(weights=None)
            self.inception.eval()
            self.classifier = models.resnet18(weights=None)
            self.scores = []

        def features(self, images):
            return torch.flatten(self.inception(images), 1)  # expect: GM501

        def update(self, real, fake):
            self.classifier.eval()
            confidence = self.classifier(fake).softmax(1).amax(1).mean().item()  # expect: GM501
            self.scores.append((self.features(real) - self.features(fake)).pow(2).mean().item() * confidence)
    """

#: Attention whose helper applies ``F.dropout`` when its rate is above 0 (PoET's ``mha_attn``), and a module that
#: hands it a rate through a variable: ``{rate}`` chosen by the mode (correct) or not (``{mark}``: the finding).
ATTENTION_RATE = """
    import torch
    import torch.nn.functional as F
    from torch import nn


    def mha_attn(q, k, v, dropout=0):
        probs = torch.softmax(q @ k.transpose(-2, -1), -1)
        if dropout > 0:
            probs = F.dropout(probs, p=dropout){mark}
        return probs @ v


    class Attention(nn.Module):
        def __init__(self, p):
            super().__init__()
            self.dropout = p

        def forward(self, q, k, v):
            dropout = {rate}
            return mha_attn(q, k, v, dropout=dropout)
    """

BUGS: dict[str, str] = {
    "sampler_takes_grad_back_from_a_caller_with_grad.py": SAMPLER_TAKES_GRAD_BACK.format(
        call="            for _ in range(steps):\n                x = guided_step(model, x, 0.1)",
        expect="  # expect: GM401",
    ),
    "global_model_evaluated_in_the_batch_loop.py": GLOBAL_MODEL_EVALUATED_IN_THE_LOOP.format(
        test_body="", step="", expect="  # expect: GM503"
    ),
    "gives_grad_back_to_a_caller_without_grad.py": gives_grad_back(
        "eval_under_no_grad",
        call="            with torch.no_grad():\n                print({name}(model, env))\n"
        "                print(model(env[0]).sum().item())",
        expect="  # expect: GM401",
    ),
    "gives_grad_back_to_a_handler.py": gives_grad_back(
        "eval_in_try",
        call="            try:\n                print({name}(model, env))\n            except RuntimeError:\n"
        "                print(model(env[0]).sum().item())",
        expect="  # expect: GM401",
    ),
    "gives_grad_back_not_before_an_early_return.py": gives_grad_back(
        "eval_returns_early",
        early="            if not env:\n                return 0.0\n",
        expect="  # expect: GM401",
    ),
    "gives_grad_back_on_one_path.py": gives_grad_back(
        "eval_back_on_one_path",
        back="            if env:\n                torch.set_grad_enabled(True){expect}",
        expect="  # expect: GM401",
    ),
    "gives_grad_back_in_a_caller_run_without_grad.py": gives_grad_back(
        "eval_in_no_grad_caller",
        call="\n\n        @torch.no_grad()\n        def report(model, env):\n            return {name}(model, env)",
        expect="  # expect: GM401",
    ),
    "gives_grad_off_last.py": gives_grad_back(
        "eval_off_last",
        early="            torch.set_grad_enabled(True){expect}\n".format(expect="  # expect: GM401"),
        back="            torch.set_grad_enabled(False){expect}",
        expect="  # expect: GM401",
    ),
    "gives_grad_back_passed_around.py": gives_grad_back(
        "eval_passed_around", call="            callbacks = [{name}]", expect="  # expect: GM401"
    ),
    "eval_off_leaks_into_fine_tuning.py": """
        import torch


        def run_eval(model, loader):
            model.eval()
            torch.set_grad_enabled(False)  # expect: GM401
            return sum(model(x).sum().item() for x in loader)


        def train(model, loaders, optimizer):
            for x in loaders["train"]:
                model.train()
                torch.set_grad_enabled(True)  # expect: GM401
                model(x).sum().backward()
                optimizer.step()
            print(run_eval(model, loaders["val"]))
            for x in loaders["fine_tune"]:
                model(x).sum().backward()
                optimizer.step()
        """,
    "eval_off_leaks_into_the_next_epoch.py": TEMPLATE_EVAL_LEAKS_OFF.format(reset="", expect="  # expect: GM401"),
    "plain_class_training_step_sets_grad.py": """
        import torch


        class Loop:
            def training_step(self, model, batch):
                torch.set_grad_enabled(True)  # expect: GM401
                return model(batch).mean()
        """,
    "lightning_steps_set_the_other_grad_mode.py": LIGHTNING_STEPS_SET_GRAD.format(
        train="False", train_expect="  # expect: GM401", val="True", val_expect="  # expect: GM401"
    ),
    "unpack_fits_forward.py": TRACKER_VALIDATION.format(
        unpack="scores, logits, states, attention", expect="  # expect: GM501"
    ),
    "rate_zeroed_under_another_name.py": FUNCTIONAL_ATTENTION.format(
        zeroed="attn_p", after="", expect="  # expect: GM101"
    ),
    "rate_zeroed_then_defaulted.py": FUNCTIONAL_ATTENTION.format(
        zeroed="dropout_p", after="            dropout_p = dropout_p or 0.1\n", expect="  # expect: GM101"
    ),
    "conditional_context_without_no_grad.py": """
        from contextlib import nullcontext

        import torch


        def evaluate(model, loader, amp):
            model.eval()
            with torch.autocast("cuda") if amp else nullcontext():
                return [model(x) for x in loader]  # expect: GM501
        """,
    # a widely copied LSTM forecasting idiom: the initial state made to require grad asks for no gradient
    "lstm_initial_state.py": """
        import torch
        from torch import nn


        class LSTMModel(nn.Module):
            def __init__(self):
                super().__init__()
                self.lstm = nn.LSTM(1, 8, batch_first=True)
                self.fc = nn.Linear(8, 1)

            def forward(self, x):
                h0 = torch.zeros(1, x.size(0), 8).requires_grad_()
                c0 = torch.zeros(1, x.size(0), 8).to(x.device).requires_grad_()
                out, _ = self.lstm(x, (h0.detach(), c0.detach()))
                return self.fc(out[:, -1])


        model = LSTMModel()
        model.eval()
        predictions = model(torch.randn(4, 5, 1))  # expect: GM501
        """,
    # a rate switched by a config flag, not by the mode: it drops in evaluation too, wherever it is decided
    "dropout_rate_by_flag.py": """
        import torch
        import torch.nn.functional as F


        def attend(q, k, v, dropout_p=0.0):
            attn = torch.softmax(q @ k.transpose(-2, -1), dim=-1)
            attn = torch.dropout(attn, dropout_p, train=True)  # expect: GM103
            return attn @ v


        class Attention(torch.nn.Module):
            def forward(self, q, k, v):
                attn = F.dropout(q @ k.transpose(-2, -1), self.p if self.use_dropout else 0.0)  # expect: GM101
                return attend(attn, k, v, dropout_p=self.p if self.use_dropout else 0.0)
        """,
    # a helper that tells training from evaluation by the module's flag, but runs both branches with gradients on
    "helper_branches_on_training.py": """
        import torch


        def forward_pass(model, batch):
            if model.training:
                return model(batch)
            return model(batch)


        def validate(model, loader):
            model.eval()
            return [forward_pass(model, batch) for batch in loader]  # expect: GM501


        def distill_pass(model, teacher, batch):
            if teacher.training:  # another module's flag: it says nothing of the module run here
                return model(batch)
            with torch.no_grad():
                return model(batch)


        def validate_student(model, teacher, loader):
            model.eval()
            return [distill_pass(model, teacher, batch) for batch in loader]  # expect: GM501
        """,
    # a loader that returns the model it put in eval() with its tokenizer; run with gradients on
    "loader_tuple.py": """
        import torch


        def load_model(path):
            model = torch.load(path)
            model.eval()
            return model, path


        def main(path, x):
            model, name = load_model(path)
            return model(x).argmax()  # expect: GM501
        """,
    # a sampler that puts the module back in training under a flag that is not the mode it found: in a test step, on
    "train_under_another_flag.py": FLAGGED_SAMPLER.format(flag="refine", source="self.hparams.refine", expect=GM201),
    # a notebook-style demo that prints the module it switches to eval(), then runs it with gradients on
    "printed_eval.py": PRINTED_EVAL.format(run="print(net(x))  # expect: GM501"),
    # the loader's model moved to a device on the way, then run with gradients on (a demo's `get_model(cfg).to(dev)`)
    "loader_moved.py": MOVED_LOADER
    + """


        def main(path, x, device):
            model = get_model(path).to(device).float()
            return model(x).argmax()  # expect: GM501
        """,
    # a dropout forced on, its probability 0 by default but passed by position: 0.1 where it is called
    "dropout_passed_by_position.py": """
        import torch
        import torch.nn.functional as F


        def attend(q, k, v, dropout_p=0.0):
            attn = torch.softmax(q @ k.transpose(-2, -1), dim=-1)
            attn = torch.dropout(attn, dropout_p, True)  # expect: GM103
            return attn @ v


        class Block(torch.nn.Module):
            def mix(self, x, p=0.0):
                return F.dropout(x, p, training=True)  # expect: GM102

            @staticmethod
            def noise(x, p=0.0):
                return F.dropout(x, p, True)  # expect: GM102

            def forward(self, q, k, v):
                return self.noise(self.mix(attend(q, k, v, 0.1), 0.2), 0.3)
        """,
    # the class's own loader puts the model in eval(); stored on self and run by a public predict()
    "stored_loader.py": STORED_LOADER
    + """
            def predict(self, x):
                return self.model(x)  # expect: GM501
        """,
    # eval() in one branch, the model run after the branches meet: that branch's model runs with gradients on
    "branch_then_join.py": """
        import torch
        from otherpkg import Extractor


        def features(kind, path, x):
            if kind == "mine":
                model = torch.load(path)
                model.eval()
            else:
                model = Extractor(path)
            return model(x).argmax()  # expect: GM501
        """,
    # a dropout switched by a flag the module holds (not one handed in per call), or by its own probability
    "dropout_flags.py": """
        import torch.nn.functional as F
        from torch import nn


        class Net(nn.Module):
            def forward(self, x):
                if self.use_dropout:
                    x = F.dropout(x, 0.5)  # expect: GM101
                return x

            def head(self, x, p):
                if p:
                    x = F.dropout(x, p)  # expect: GM101
                return x
        """,
    # a layer that keeps its BatchNorm in eval() is judged where the module is evaluated; a module's method named
    # for inference hands no output to be differentiated
    "module_evaluated.py": """
        from torch import nn


        class Layer(nn.Module):
            def forward(self, x):
                self.bn.eval()
                return self.bn(x)


        class Model(nn.Module):
            def predict(self, x):
                self.net.eval()
                return self.net(x)  # expect: GM501


        def evaluate(layer, x):
            layer.eval()
            return layer(x).argmax()  # expect: GM501
        """,
    # the same shapes as chosen_contexts.py's look-alikes, with nothing that turns gradients off: a null context,
    # no decorator, a method run by name that is not a forward
    "unchosen_contexts.py": """
        import contextlib

        from torch import nn


        class Detector(nn.Module):
            def predict(self, imgs):
                self.eval()
                return [self(img) for img in imgs]  # expect: GM501


        def check(model, x):
            model.eval()
            with contextlib.nullcontext():
                return model(x).argmax()  # expect: GM501


        class Trainer:
            def _compute_fid(self):
                self.net_G.eval()
                return compute_fid(self.net_G)

            def sample(self, z):
                return self.net_G(z).argmax()  # expect: GM501
        """,
    # a Lightning step called by hand, outside a Trainer: nothing turns gradients off
    "step_by_hand.py": """
        def predict(model, loader):
            model.eval()
            return [model.predict_step(batch, i) for i, batch in enumerate(loader)]  # expect: GM501
        """,
    # the generate method puts the network in eval() for good: the class's other runs are in evaluation
    "rollout_left_in_eval.py": """
        import torch


        class Agent:
            @torch.no_grad()
            def generate(self, x):
                self.net.eval()
                return self.net(x)

            def rollout(self, x):
                return self.net(x).sum()  # expect: GM501
        """,
    "phase_loop.py": PHASE_LOOP
    + """
                        outputs = model(images)  # expect: GM501
                        loss = criterion(outputs, labels)
                        if phase == "train":
                            optimizer.zero_grad()
                            loss.backward()
                            optimizer.step()


        def run_partition(model, loader, optimizer, partition="train"):
            for x, y in loader:
                if partition == "train":
                    model.train()
                else:
                    model.eval()
                loss = (model(x) - y).pow(2).mean()  # expect: GM501
                if partition == "train":
                    loss.backward()
                    optimizer.step()


        def fit(model, loaders, optimizer):
            run_partition(model, loaders["train"], optimizer)
            run_partition(model, loaders["valid"], optimizer, partition="valid")
        """,
    "lightning_toggle.py": """
        import lightning.pytorch as pl
        import torch


        class ImagePredictionLogger(pl.Callback):
            def on_validation_batch_end(self, trainer, pl_module, outputs, batch, batch_idx):
                x, y = batch
                with torch.no_grad():
                    pl_module.eval()
                    logits = pl_module(x)
                    pl_module.train()  # expect: GM201
                trainer.logger.log_image("val", [logits])


        class Classifier(pl.LightningModule):
            def validation_step(self, batch, batch_idx):
                x, y = batch
                self.backbone.eval()
                features = self.backbone(x)
                self.backbone.train()  # expect: GM201
                return self.head(features)
        """,
    "teacher_rebound.py": DISTILLING
    + """
                teacher_output = teacher(x)  # expect: GM501
                teacher_output = teacher_output.detach()
"""
    + DISTILLING_STEP,
    "td_target.py": """
        import torch
        import torch.nn.functional as F


        class DDPG:
            def learn(self, state, action, reward, next_state, not_done):
                self.target_actor.eval()
                self.target_critic.eval()
                self.critic.eval()
                target_actions = self.target_actor(next_state)  # expect: GM501
                target_q = self.target_critic(next_state, target_actions).squeeze(1)  # expect: GM501
                q = self.critic(state, action)
                target = reward + self.gamma * torch.mul(target_q, not_done)
                target = torch.tensor(target).view(-1, 1)
                self.critic.train()
                self.critic_optimizer.zero_grad()
                critic_loss = F.mse_loss(target, q)
                critic_loss.backward()
                self.critic_optimizer.step()
        """,
    "td_target_list.py": """
        import torch as T
        import torch.nn.functional as F


        class Agent:
            def learn(self, state, action, reward, new_state, done):
                self.target_actor.eval()
                self.target_critic.eval()
                self.critic.eval()
                target_actions = self.target_actor.forward(new_state)  # expect: GM501
                critic_value_ = self.target_critic.forward(new_state, target_actions)  # expect: GM501
                critic_value = self.critic.forward(state, action)
                target = []
                for j in range(self.batch_size):
                    target.append(reward[j] + self.gamma * critic_value_[j] * done[j])
                target = T.tensor(target).view(self.batch_size, 1)
                self.critic.train()
                self.critic.optimizer.zero_grad()
                critic_loss = F.mse_loss(target, critic_value)
                critic_loss.backward()
                self.critic.optimizer.step()
        """,
    "inception_score.py": INCEPTION_SCORE.format(base="", header=""),
    "validation_in_train_method.py": """
        class Network:
            def train(self):
                for epoch in range(self.epochs):
                    self.model.train()
                    for x, y in self.train_loader:
                        self.optm.zero_grad()
                        pi, sigma, mu = self.model(x)
                        loss = self.make_loss(pi, sigma, mu, y)
                        loss.backward()
                        self.optm.step()
                    if epoch % self.eval_step == 0:
                        self.model.eval()
                        test_loss = 0
                        for x, y in self.test_loader:
                            pi, sigma, mu = self.model(x)  # expect: GM501
                            loss = self.make_loss(pi, sigma, mu, y)
                            test_loss += loss.detach().cpu().numpy()
        """,
    "rate_through_variable.py": ATTENTION_RATE.format(rate="self.dropout", mark="  # expect: GM101"),
    "module_name_rebound.py": """
        import torch

        import model

        model = model.RNNModel(10, 32)
        criterion = torch.nn.CrossEntropyLoss()


        def evaluate(batches):
            model.eval()
            total = 0.0
            for x, y in batches:
                total += criterion(model(x), y).item()  # expect: GM501
            return total
        """,
    "shared_epoch_function.py": SHARED_EPOCH
    + """


        def main(model, train, test, optimizer):
            model.train()
            backprop(model, train, optimizer)
            model.eval()
            return backprop(model, test, optimizer, training=False)  # expect: GM501


        class Solver:
            def train(self, epochs):
                for epoch in range(epochs):
                    self.model.train()
                    self._run_one_epoch(epoch)
                    self.model.eval()
                    self._run_one_epoch(epoch, cross_valid=True)  # expect: GM501

            def _run_one_epoch(self, epoch, cross_valid=False):
                total = 0.0
                for x, y in self.cv_loader if cross_valid else self.tr_loader:
                    loss = self.criterion(self.model(x), y)
                    if not cross_valid:
                        self.optimizer.zero_grad()
                        loss.backward()
                        self.optimizer.step()
                    total += loss.item()
                return total
        """,
    "branches.py": """
        import torch


        def run_epoch(model, loader, optimizer, mode):
            if mode == "train":
                model.train()
                for x, y in loader:
                    loss = model(x).sum()
                    loss.backward()
                    optimizer.step()
            else:
                model.eval()
                for x, y in loader:
                    out = model(x)  # expect: GM501


        def phases(model, loaders, optimizer):
            for phase in ("valid", "train"):
                if phase == "valid":
                    model.eval()  # expect: GM503
                    for x in loaders[phase]:
                        out = model(x)  # expect: GM501
                else:
                    for x in loaders[phase]:
                        model(x).sum().backward()
                        optimizer.step()


        def train_then_evaluate(model, train_loader, valid_loader, optimizer):
            for x in train_loader:
                model(x).sum().backward()
                optimizer.step()
            model.eval()
            while True:
                out = model(next(valid_loader))  # expect: GM501
        """,
    "train_then_eval.py": """
        import torch
        from torch import nn

        F = nn.functional


        def main(model, loader, optimizer, x):
            for batch in loader:
                optimizer.zero_grad()
                model(batch).sum().backward()
                optimizer.step()
            model.eval()
            logits = model(x)  # expect: GM501

            def evaluate(data):
                model.eval()
                return model(data)  # expect: GM501

            for epoch in range(3):
                model.train()
                for batch in loader:
                    model(batch).sum().backward()
                print(evaluate(x))
            return logits


        class Head(nn.Module):
            def forward(self, x):
                return F.dropout(x, p=self.p)  # expect: GM101
        """,
    "followed.py": """
        import torch


        def load_model(path):
            model = torch.load(path)
            model.eval()
            return model


        def evaluate(model, loader):
            return [model(x) for x in loader]


        def main(loader):
            model = load_model("model.pt")
            first = model(next(iter(loader)))  # expect: GM501
            return first


        def validate(net, loader):
            net.eval()
            return evaluate(net, loader)  # expect: GM501
        """,
    "second_pass.py": """
        import torch


        def evaluate(model, loader):
            return [model(x).argmax(-1) for x in loader]


        def main(model, train_loader, val_loader, test_loader, optimizer, epochs):
            for epoch in range(epochs):
                model.train()
                for x in train_loader:
                    model(x).sum().backward()
                    optimizer.step()
                model.eval()
                for x in val_loader:
                    out = model(x)  # expect: GM501
                    again = model(x)
                if epoch % 10 == 0:
                    for x in test_loader:
                        out = model(x)  # expect: GM501
            model.eval()
            return evaluate(model, test_loader)  # expect: GM501
        """,
    "lazy_parameter.py": """
        import torch
        from torch import nn


        class LazyPositions(nn.Module):
            def forward(self, x):
                if not hasattr(self, "pos"):
                    self.pos = torch.zeros(1, x.size(1), requires_grad=True)
                return x + self.pos


        def evaluate(model, loader):
            model.eval()
            return [model(x).argmax(-1) for x in loader]  # expect: GM501
        """,
    "nested_called_with_grad.py": NESTED_VALIDATION.format(expect="  # expect: GM501", helpers="")
    + """                valid_fn(valid_loader)


        def report(model, valid_loader):
            def score(data):
                model.eval()
                for x in data:
                    out = model(x)  # expect: GM501
                return out

            with torch.no_grad():
                score(valid_loader)
            return list(map(score, [valid_loader]))


        def outer(model, valid_loader):
            def show(data):
                model.eval()
                for x in data:
                    out = model(x)  # expect: GM501
                return out

            return valid_loader


        def elsewhere(valid_loader):
            with torch.no_grad():
                return show(valid_loader)
        """,
    "sample_of_another_class.py": SAMPLERS.format(expect="  # expect: GM501")
    + """

        class Trainer(Synthesizer):
            def reset(self):
                self.cond = None

            def fit(self, data):
                self.cond = Sampler()
                for _ in range(3):
                    self.generator(self.cond.sample(4) + data).sum().backward()


        def fit(synth, data):
            sampler = Sampler()
            for _ in range(3):
                synth.generator(sampler.sample(4) + data).sum().backward()
        """,
    "class_held_model_scores_fitness.py": HELD_ENERGY
    + """
            def get_fitness(self, x):
                return -1 * self.energy(x).detach().cpu().numpy()  # expect: GM501

            def score(self, x):
                y = self.energy(x).detach()  # expect: GM501
                return y

            def margin(self, x):
                return float(self.energy(x).mean())  # expect: GM501

            def run(self, x):
                return self.get_fitness(x) + self.score(x) + self.margin(x)
        """,
    "helper_method.py": """
        import torch


        class Exp:
            def _process_one_batch(self, x, y):
                return self.model(x), y

            def train(self, loader, optimizer):
                self.model.train()
                for x, y in loader:
                    pred, true = self._process_one_batch(x, y)
                    torch.nn.functional.mse_loss(pred, true).backward()
                    optimizer.step()

            def vali(self, loader):
                self.model.eval()
                for x, y in loader:
                    pred, true = self._process_one_batch(x, y)  # expect: GM501
                self.model.train()


        class Synthesizer:
            def _run(self, mel):
                return self.vocoder(mel)

            def synthesize_all(self, mels):
                self.vocoder.eval()
                return [self._run(mel) for mel in mels]  # expect: GM501
        """,
    "global_model.py": """
        import torch

        checkpoint = torch.load("checkpoint.pt")
        encoder = checkpoint["encoder"].to("cpu")
        encoder.eval()


        def evaluate(loader):
            scores = []
            for image, caption in loader:
                features = encoder(image)  # expect: GM501
                scores.append(float(features.mean()))
            return sum(scores) / len(scores)


        if __name__ == "__main__":
            print(evaluate([]))
        """,
    "skorch_override.py": """
        import skorch


        class Net(skorch.NeuralNet):
            def validation_step(self, X, y):
                self.module_.eval()
                output = self.module_(X)  # expect: GM501
                return {"loss": self.get_loss(output, y), "y_pred": output}
        """,
    "followed_in_class.py": """
        import torch


        class Vocoder(torch.nn.Module):
            def forward(self, mel):
                return mel


        class Synthesizer:
            def __init__(self):
                self.vocoder = Vocoder()
                self.vocoder.eval()

            def synthesize(self, mel):
                return self.vocoder(mel)  # expect: GM501
        """,
    "forward_methods.py": """
        import torch


        class VAE(torch.nn.Module):
            def encode(self, x):
                return x

            def decode(self, z):
                return z


        def reconstruct(vae, x):
            vae.eval()
            z = vae.encode(x)  # expect: GM501
            return vae.decode(z)
        """,
    "init_training.py": """
        import torch
        import torch.nn.functional as F


        class Attention(torch.nn.Module):
            def __init__(self, p):
                super().__init__()
                self.p_eval = p if self.training else 0.0
                self.drop_now = self.training

            def forward(self, q, k, v):
                out = F.scaled_dot_product_attention(q, k, v, dropout_p=self.p_eval)  # expect: GM104
                return F.dropout(out, 0.1, training=self.drop_now)  # expect: GM102
        """,
    "flash_flag.py": """
        import torch
        import torch.nn.functional as F


        class CausalSelfAttention(torch.nn.Module):
            def __init__(self, config):
                super().__init__()
                self.dropout = config.dropout
                self.flash = hasattr(F, "scaled_dot_product_attention")

            def forward(self, q, k, v):
                if self.flash:
                    return F.scaled_dot_product_attention(q, k, v, dropout_p=self.dropout)  # expect: GM104
                return torch.softmax(q @ k.transpose(-2, -1), dim=-1) @ v


        def attend(q, k, v, p):
            if p > 0:
                q = F.dropout(q, p)  # expect: GM101
            return F.scaled_dot_product_attention(q, k, v, dropout_p=0.1)  # expect: GM104
        """,
    "executors.py": """
        from concurrent.futures import ThreadPoolExecutor
        from multiprocessing.pool import ThreadPool

        import torch


        def score(model, x):
            return model(x)


        @torch.no_grad()
        def transcribe(model, audio):
            return model(audio).argmax(-1)


        def worker(model, audio, queue):
            # one call under no_grad, the other not: the worker runs the model with gradients on
            audio = queue.get()
            return transcribe(model, audio), model.forward(audio)


        def run_forward(m, x):
            # a module under a name that says nothing, run through its `forward`
            return m.forward(x)


        def chunked(m, xs):
            # the module runs in a helper of the file
            return [run_forward(m, x) for x in xs]


        def prefetch_and_score(model, data, queue):
            # it moves slices to the device, and runs the model on them
            for piece in data:
                queue.put(model(torch.clone(piece).to("cuda")))


        class Model(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.executor = ThreadPoolExecutor(4)

            def test_step(self, batch, batch_idx):
                return self.executor.submit(worker, self, batch, None)  # expect: GM801

            def validation_step(self, batch, batch_idx):
                first = self.executor.submit(score, self, batch)  # expect: GM801
                rest = list(ThreadPoolExecutor(2).map(score, [self], [batch]))  # expect: GM801
                with ThreadPool(2) as pool:
                    pool.map(score, [batch])  # expect: GM801
                scored = self.executor.submit(prefetch_and_score, self, batch, None)  # expect: GM801
                direct = self.executor.submit(run_forward, self, batch)  # expect: GM801
                chunks = self.executor.submit(chunked, self, batch)  # expect: GM801
                own = self.executor.submit(lambda: self(batch))  # expect: GM801
                return first, rest, scored, direct, chunks, own
        """,
    "decorated_inference.py": """
        import torch


        @torch.enable_grad()  # expect: GM302
        def predict(model, x):
            return model(x)


        class Runner:
            @torch.set_grad_enabled(True)  # expect: GM302
            def inference(self, x):
                return self.model(x)
        """,
    "pkg/__init__.py": """
        """,
    "sweep_script.py": """
        import torch


        def run(cfg):
            torch.set_grad_enabled(False)  # expect: GM401
            return cfg


        def sweep(cfgs):
            return [run(cfg) for cfg in cfgs]


        if __name__ == "__main__":
            run({})
            torch.multiprocessing.spawn(run, nprocs=2)
        """,
    "spawned_worker.py": """
        import torch


        def worker(rank):
            torch.set_grad_enabled(False)  # expect: GM401
            return rank


        if __name__ == "__main__":
            torch.multiprocessing.spawn(worker, nprocs=2)
        """,
    "pkg/setup_grad.py": """
        import torch

        torch.set_grad_enabled(False)  # expect: GM401


        def predict(model, x):
            return model(x)
        """,
    "sgd_by_hand.py": """
        import torch

        w = torch.randn(3, requires_grad=True)
        b = torch.zeros(1).requires_grad_()


        def fit(x, y, lr=0.1):
            global w, b
            for _ in range(10):
                loss = ((x @ w + b - y) ** 2).mean()
                loss.backward()
                w -= lr * w.grad  # expect: GM701
                b.sub_(lr * b.grad)  # expect: GM701
                for p in [w, b]:
                    p -= lr * p.grad  # expect: GM701
        """,
    "tests/test_dropout.py": """
        import torch.nn.functional as F


        def test_block(block, x):
            block.eval()
            out = block(x)
            return F.dropout(out, 0.5)  # expect: GM101
        """,
    # an agent that trains and loads a checkpoint for a test run: the `eval()` of its loader holds for the methods
    # that evaluate
    "agent_evaluated_after_loading.py": AGENT
    + """
            def evaluate(self, states):
                return self.actor(states).mean().item()  # expect: GM501

            def choose_action(self, state):
                return self.actor(state).argmax().item()  # expect: GM501
        """,
    # a model built from a block of another file of the project that holds dropout: the evaluation inside the
    # training loop leaves it in eval() for the next epoch
    "dropblocks/__init__.py": """
        import torch


        class DropBlock(torch.nn.Module):
            def __init__(self, width):
                super().__init__()
                self.linear = torch.nn.Linear(width, width)
                self.drop = torch.nn.Dropout(0.2)

            def forward(self, x):
                return self.drop(self.linear(x))
        """,
    "train_with_dropblock.py": TRAIN.format(pkg="dropblocks", block="DropBlock", mark="  # expect: GM503"),
    # `eval()` alone, or a `freeze(...)` with arguments (another API, freezing a part): the model still has
    # parameters that require grad
    "epoch_by_flag.py": EPOCH_BY_FLAG.format(mark="  # expect: GM501")
    + """

        def main(model, loaders, optimizer, phase):
            for epoch in range(10):
                run_epoch(model, loaders["train"], True, optimizer)
                with torch.no_grad():
                    run_epoch(model, loaders["valid"], False)
            run_epoch(model, loaders["test"])
        """,
    "linear_probe.py": """
        import torch


        def train_linear(backbone, linear, loader, optimizer):
            for x, y in loader:
                backbone.eval()
                _, aux = backbone(x, penultimate=True)  # expect: GM501
                features = aux["penultimate"].detach()
                loss = torch.nn.functional.cross_entropy(linear(features), y)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()


        def train_probe(encoder, head, loader, optimizer):
            encoder.eval()
            for x, y in loader:
                features = encoder(x).detach()  # expect: GM501
                loss = torch.nn.functional.cross_entropy(head(features), y)
                loss.backward()
                optimizer.step()
        """,
    # a DDPG step: the target actor in eval() feeds only the target critic, whose output is detached
    "target_actor.py": """
        import torch


        def update(actor, critic, actor_, critic_, batch, optimizer):
            actor_.eval()
            critic_.eval()
            s, a, r, s_next = batch
            a_next = actor_(s_next)  # expect: GM501
            q_next = critic_(s_next, a_next)  # expect: GM501
            y = r + 0.99 * q_next.detach()
            loss = torch.nn.functional.mse_loss(critic(s, a), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        """,
    # a course's predictor on no base: its `forward(img)` is no module's forward, run in whatever mode its caller has
    "plain_class_forward.py": """
        import torch


        class Img2Num:
            def __init__(self, model):
                self.model = model

            def forward(self, img):
                self.model.eval()
                output = self.model(img.unsqueeze(0))  # expect: GM501
                return torch.argmax(output, 1)
        """,
    "epoch_by_flag_uncalled.py": EPOCH_BY_FLAG.format(mark="  # expect: GM501"),
    "epoch_by_flag_overridden.py": EPOCH_BY_FLAG.format(mark="  # expect: GM501").replace(
        "            if train:\n                model.train()",
        "            train = train and not torch.is_inference_mode_enabled()\n"
        "            if train:\n                model.train()",
    )
    + """

        def main(model, loaders, optimizer):
            run_epoch(model, loaders["train"], True, optimizer)
            with torch.no_grad():
                run_epoch(model, loaders["valid"], False)
        """,
    "epoch_by_variable_flag.py": EPOCH_BY_FLAG.format(mark="  # expect: GM501")
    + """

        def main(model, loaders, optimizer):
            for phase in ("train", "valid"):
                run_epoch(model, loaders[phase], phase == "train", optimizer)
        """,
    "predictor_not_frozen.py": """
        class Predictor:
            def __init__(self, path):
                self.model = ColaModel.load_from_checkpoint(path)
                self.model.eval()

            def predict(self, ids):
                return self.model(ids).softmax(-1).tolist()  # expect: GM501


        def predict(path, ids):
            model = ColaModel.load_from_checkpoint(path)
            model.eval()
            model.freeze(["embeddings"])
            return model(ids).argmax(-1)  # expect: GM501
        """,
}

CORRECT: dict[str, str] = {
    "sampler_takes_grad_back_under_no_grad.py": SAMPLER_TAKES_GRAD_BACK.format(
        call="            with torch.no_grad():\n                for _ in range(steps):\n"
        "                    x = guided_step(model, x, 0.1)",
        expect="",
    ),
    "global_model_put_back_in_training_each_step.py": GLOBAL_MODEL_EVALUATED_IN_THE_LOOP.format(
        test_body="", step="                model.train()\n", expect=""
    ),
    "evaluation_of_its_own_model_in_the_batch_loop.py": GLOBAL_MODEL_EVALUATED_IN_THE_LOOP.format(
        test_body="            model = torch.load('best.pt')\n", step="", expect=""
    ),
    "training_of_a_model_it_is_given_in_the_batch_loop.py": GLOBAL_MODEL_EVALUATED_IN_THE_LOOP.format(
        test_body="", step="", expect=""
    ).replace("def train(loader, data):", "def train(loader, data, model):"),
    "eval_gives_grad_back_before_it_returns.py": gives_grad_back("eval_model"),
    "eval_off_until_the_next_step_turns_grad_on.py": TEMPLATE_EVAL_LEAKS_OFF.format(
        reset="                    torch.set_grad_enabled(True)\n", expect=""
    ),
    "lightning_steps_set_their_own_grad_mode.py": LIGHTNING_STEPS_SET_GRAD.format(
        train="True", train_expect="", val="False", val_expect=""
    ),
    "unpack_raises_before_forward.py": TRACKER_VALIDATION.format(unpack="scores, logits, states", expect=""),
    "rate_zeroed_unless_training_by_caller.py": FUNCTIONAL_ATTENTION.format(zeroed="dropout_p", after="", expect=""),
    "grad_chosen_by_conditional_context.py": """
        from contextlib import nullcontext

        import torch


        class FeatureExtractor:
            def __init__(self, model):
                self.model = model
                self.model.eval()

            def predict(self, images, no_grad=True):
                self.model.eval()
                with torch.inference_mode() if no_grad else nullcontext():
                    return self.model(images)
        """,
    "epoch_function_grad_statement.py": RUN_EPOCH.format(grad="            torch.set_grad_enabled(train)\n")
    + """

        def fit(model, loaders, optimizer, epochs):
            for _ in range(epochs):
                run_epoch(model, loaders["train"], optimizer, True)
                run_epoch(model, loaders["val"], optimizer, False)
        """,
    "metric_update.py": INCEPTION_SCORE.format(base="(Metric)", header="from torchmetrics import Metric\n"),
    "rate_chosen_by_mode_through_variable.py": ATTENTION_RATE.format(
        rate="self.dropout if self.training else 0", mark=""
    ),
    "critic_fitted_in_eval.py": """
        import torch as T
        import torch.nn.functional as F


        class Agent:
            def fit_values(self, states, returns):
                self.critic.eval()  # BatchNorm statistics frozen while the value head is fitted
                values = []
                for s in states:
                    values.append(self.critic(s))
                loss = F.mse_loss(T.stack(values), returns)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
        """,
    "shared_epoch_function.py": SHARED_EPOCH
    + """


        def main(model, train, test, optimizer, finetune):
            model.eval()
            backprop(model, train, optimizer, training=True)
            backprop(model, train, optimizer, training=finetune)
            with torch.no_grad():
                return backprop(model, test, optimizer, training=False)
        """,
    "phase_loop.py": PHASE_LOOP
    + """
                        with torch.set_grad_enabled(phase == "train"):
                            outputs = model(images)
                            loss = criterion(outputs, labels)
                        if phase == "train":
                            optimizer.zero_grad()
                            loss.backward()
                            optimizer.step()
                            fake = model(images, "generator")
                            model(fake, "discriminator").mean().backward()
        """,
    "partition_epoch/__init__.py": """
        def run_partition(model, loader, optimizer=None, partition="train"):
            for x, y in loader:
                if partition == "train":
                    model.train()
                else:
                    model.eval()
                loss = (model(x) - y).pow(2).mean()
                if partition == "train":
                    loss.backward()
                    optimizer.step()


        def test_partition(model, loader):
            return run_partition(model, loader, partition="test")
        """,
    "evaluate_samples.py": """
        import torch

        from partition_epoch import test_partition


        def main(model, loader):
            with torch.no_grad():
                return test_partition(model, loader)
        """,
    "lightning_toggle.py": """
        import lightning.pytorch as pl
        import torch


        class ImagePredictionLogger(pl.Callback):
            def on_validation_batch_end(self, trainer, pl_module, outputs, batch, batch_idx):
                x, y = batch
                with torch.no_grad():
                    was_training = pl_module.training
                    pl_module.eval()
                    logits = pl_module(x)
                    pl_module.train(was_training)
                    self.probe.eval()
                    probed = self.probe(logits)
                    self.probe.train()
                trainer.logger.log_image("val", [logits, probed])

            def on_train_batch_end(self, trainer, pl_module, outputs, batch, batch_idx):
                with torch.no_grad():
                    pl_module.eval()
                    trainer.logger.log_image("train", [pl_module(batch[0])])
                    pl_module.train()
        """,
    "teacher_rebound.py": DISTILLING
    + """
                teacher_output = teacher(x)
                if teacher.frozen:
                    teacher_output = teacher_output.detach()
"""
    + DISTILLING_STEP,
    "force_field.py": """
        import torch


        def predict_forces(model, dataset):
            model.eval()
            energies, forces = [], []
            for data in dataset:
                data.pos.requires_grad = True
                energy = model(data).sum()
                grads = torch.autograd.grad(energy, data.pos)[0]
                energies.append(energy.item())
                forces.extend((-grads).flatten().tolist())
            return energies, forces
        """,
    # the same agent's training helper: the loader's `eval()` is for a test run, not for what training runs
    "epoch_by_flag_ok.py": EPOCH_BY_FLAG.format(mark="")
    + """

        def main(model, loaders, optimizer):
            for epoch in range(10):
                run_epoch(model, loaders["train"], True, optimizer)
                run_epoch(model, loaders["train"], optimizer=optimizer, train=1)
                with torch.no_grad():
                    run_epoch(model, loaders["valid"], False)
                    run_epoch(model, loaders["valid"], train=False)
            with torch.no_grad():
                run_epoch(model, loaders["test"])
        """,
    "linear_probe_ok.py": """
        import torch


        def train_linear(backbone, linear, loader, optimizer):
            for x, y in loader:
                backbone.eval()
                with torch.no_grad():
                    _, aux = backbone(x, penultimate=True)
                loss = torch.nn.functional.cross_entropy(linear(aux["penultimate"]), y)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()


        def adversarial_training(model, loader, optimizer, history):
            for x, y in loader:
                model.eval()
                x_adv = x.clone().requires_grad_()
                out = model(x_adv)
                history.append(out.detach())
                (grad,) = torch.autograd.grad(torch.nn.functional.cross_entropy(out, y), x_adv)
                x_adv = (x + 0.03 * grad.sign()).detach()
                model.train()
                loss = torch.nn.functional.cross_entropy(model(x_adv), y)
                loss.backward()
                optimizer.step()
        """,
    # the actor's own step: the critic's output is differentiated into the actor, so the graph is wanted
    "target_actor_ok.py": """
        import torch


        def update_actor(actor, critic, s, optimizer):
            critic.eval()
            a = actor(s)
            q = critic(s, a)
            loss = -q.mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            return loss.item()
        """,
    # a module (a base, a `forward`) that keeps a submodule in eval() runs in its caller's mode, whatever the base
    "module_forward_ok.py": """
        from some_library import Block


        class Wrapper(Block):
            def forward(self, img):
                self.backbone.eval()
                output = self.backbone(img.unsqueeze(0))
                return output.argmax(1)
        """,
    "epoch_flag_forms_ok.py": """
        import torch


        def run_epoch(model, loader, evaluate, optimizer=None):
            if not evaluate:
                model.train()
            else:
                model.eval()
            for x, y in loader:
                if evaluate or x.is_cuda:
                    print(model(x))
                else:
                    loss = model.robust_loss(x, y)
                    loss.backward()
                    optimizer.step()


        def main(model, loaders, optimizer):
            run_epoch(model, loaders["train"], False, optimizer)
            with torch.no_grad():
                run_epoch(model, loaders["valid"], True)


        def nested(model, loaders, optimizer):
            def one_epoch(loader, train):
                if train:
                    model.train()
                else:
                    model.eval()
                for x, y in loader:
                    if train or x.is_cuda:
                        loss = model.robust_loss(x, y)
                        loss.backward()
                    else:
                        print(model(x))

            one_epoch(loaders["train"], True)
            with torch.no_grad():
                one_epoch(loaders["valid"], False)
        """,
    "agent_phases.py": AGENT
    + """
            def get_v(self, states):
                return self.actor(states).squeeze(-1)
        """,
    # the same loop over a model whose block, in another file, holds no mode-dependent layer: `eval()` changes
    # nothing it computes (a graph convolution and a Linear)
    "graphblocks/__init__.py": """
        import torch
        from torch_geometric.nn import GCNConv


        class GraphBlock(torch.nn.Module):
            def __init__(self, width):
                super().__init__()
                self.conv = GCNConv(width, width)
                self.linear = torch.nn.Linear(width, width)

            def forward(self, x):
                return self.linear(self.conv(x))
        """,
    "train_with_graphblock.py": TRAIN.format(pkg="graphblocks", block="GraphBlock", mark=""),
    # a prefetching worker that only copies input slices to the device, under an inference that turned gradients
    # off (nnUNet's sliding window): nothing it does records a graph
    "thread_copies_slices.py": """
        from queue import Queue
        from threading import Thread

        import torch


        class Predictor:
            @torch.inference_mode()
            def predict(self, network, data, slicers):
                def producer(d, slices, q):
                    for s in slices:
                        q.put((torch.clone(d[s][None], memory_format=torch.contiguous_format).to(self.device), s))
                    q.put("end")

                queue = Queue(maxsize=2)
                Thread(target=producer, args=(data, slicers, queue), daemon=True).start()
                outputs = []
                while (item := queue.get()) != "end":
                    outputs.append(network(item[0]).cpu())
                return outputs
        """,
    # a loop that differentiates the inputs of a model it put in eval() itself, with no optimizer step: Langevin
    # sampling from an energy model (DIG's GraphEBM), not training
    "langevin_sampling.py": """
        import torch


        def sample(energy, loader, steps, step_size):
            samples = []
            for batch in loader:
                x = batch.clone().requires_grad_(True)
                energy.eval()
                for _ in range(steps):
                    energy(x).sum().backward()
                    x.data.add_(x.grad.data, alpha=-step_size)
                    x.grad.zero_()
                samples.append(x.detach())
            return samples
        """,
    # the rate chosen by the mode itself, in place or handed to the SDPA reference math (hyena-dna, fish-speech)
    "dropout_rate_by_mode.py": """
        import torch
        import torch.nn.functional as F


        def attend(q, k, v, dropout_p=0.0):
            attn = torch.softmax(q @ k.transpose(-2, -1), dim=-1)
            attn = torch.dropout(attn, dropout_p, train=True)
            return attn @ v


        class Attention(torch.nn.Module):
            def forward(self, q, k, v):
                attn = F.dropout(q @ k.transpose(-2, -1), self.p if self.training else 0.0)
                attn = F.dropout(attn, 0.0 if not self.training else self.p)
                return attend(attn, k, v, dropout_p=self.p if self.training else 0.0)
        """,
    # a helper that runs the module under no_grad itself when it is not training (DPR's biencoder pass)
    "helper_no_grad_unless_training.py": """
        import torch


        def forward_pass(model, batch):
            if model.training:
                out = model(batch)
            else:
                with torch.no_grad():
                    out = model(batch)
            return out


        def validate(model, loader):
            model.eval()
            return [forward_pass(model, batch) for batch in loader]
        """,
    # a layer whose forward keeps its BatchNorm and dropout in eval(), trained through (deepchem's Weave layers):
    # its forward runs in its caller's grad mode, in loops and however long the chain to its output
    "forward_keeps_eval.py": """
        import torch
        from torch import nn


        class WeaveLayer(nn.Module):
            def __init__(self):
                super().__init__()
                self.w = nn.Linear(4, 4)
                self.bn = nn.BatchNorm1d(4)
                self.blocks = nn.ModuleList([nn.Linear(4, 4), nn.Linear(4, 4)])

            def forward(self, inputs):
                atoms, pairs = inputs
                h = self.w(atoms)
                self.bn.eval()
                h = self.bn(h)
                h = torch.relu(h)
                for block in self.blocks:
                    block.eval()
                    h = block(h) + h
                merged = torch.cat([h, pairs], 1)
                return [merged, pairs]
        """,
    # F.dropout switched by a flag each call hands in with its inputs, or as a parameter (deepchem's models turn
    # it on for training and Monte-Carlo dropout only)
    "dropout_switch.py": """
        import torch.nn.functional as F
        from torch import nn


        class Net(nn.Module):
            def forward(self, inputs):
                x, dropout_switch = inputs
                y = self.fc(x)
                if self.p > 0.0 and dropout_switch:
                    y = F.dropout(y, self.p)
                return y

            def head(self, x, use_dropout):
                if use_dropout:
                    x = F.dropout(x, 0.5)
                return x

            def tail(self, inputs):
                switch = inputs[1]
                if switch:
                    return F.dropout(inputs[0], 0.5)
                return inputs[0]
        """,
    # a project's plain `@nograd` decorator (simple-faster-rcnn); a grad context picked from a table by mode
    # (algorithmic-efficiency's `contexts[mode]`); a GAN trainer's `gen_forward`, a forward pass under another name
    # that its caller differentiates, beside a FID helper that puts the generator in eval() (imaginaire)
    "chosen_contexts.py": """
        import contextlib

        import torch
        from torch import nn


        def nograd(f):
            def new_f(*args, **kwargs):
                with torch.no_grad():
                    return f(*args, **kwargs)

            return new_f


        class Detector(nn.Module):
            @nograd
            def predict(self, imgs):
                self.eval()
                return [self(img) for img in imgs]


        def model_fn(model, x, mode):
            contexts = {"eval": torch.no_grad, "train": contextlib.nullcontext}
            if mode == "eval":
                model.eval()
            with contexts[mode]():
                return model(x)


        class Trainer:
            def _compute_fid(self):
                self.net_G.eval()
                return compute_fid(self.net_G)

            def gen_forward(self, data):
                out = self.net_G(data)
                return self.criterion(out)
        """,
    # a codec module holding a model in eval(): its encode/decode hand the output to whoever uses the codec, who
    # sets the grad mode (audiocraft's DAC)
    "codec.py": """
        from torch import nn


        class Codec(nn.Module):
            def encode(self, x):
                return self.encoder(x)

            def decode(self, z):
                return self.decoder(z)


        class Pretrained(nn.Module):
            def __init__(self, model):
                super().__init__()
                self.model = model
                self.model.eval()

            def encode(self, x):
                return self.model.encode(x)

            def decode(self, codes):
                out = self.model.decode(codes)
                return out
        """,
    # a module without parameters put in eval() by a frozen-stage helper, run in a loop by another method
    # (GroundingDINO's Swin backbone): nothing of it records a graph
    "frozen_stage_dropout.py": """
        from torch import nn


        class Backbone(nn.Module):
            def __init__(self):
                super().__init__()
                self.pos_drop = nn.Dropout(p=0.1)

            def _freeze_stages(self):
                self.pos_drop.eval()

            def features(self, xs):
                outs = []
                for x in xs:
                    outs.append(self.pos_drop(x))
                return outs
        """,
    # the same loader, its model run under no_grad; a tuple whose other item is the one used
    "loader_tuple_no_grad.py": """
        import torch


        def load_model(path):
            model = torch.load(path)
            model.eval()
            return model, torch.nn.Linear(2, 2)


        def main(path, x):
            model, head = load_model(path)
            with torch.no_grad():
                features = model(x)
            return head(features)
        """,
    # the same sampler giving back the mode it found: `train()` only if it was training, which a test step is not
    "train_if_it_was_training.py": FLAGGED_SAMPLER.format(flag="was_training", source="self.training", expect=""),
    # the same demo under no_grad
    "printed_eval_no_grad.py": PRINTED_EVAL.format(run="with torch.no_grad():\n            print(net(x))"),
    # the same loader moved to a device: run under no_grad, or put back in training
    "loader_moved_no_grad.py": MOVED_LOADER
    + """


        def main(path, x, device):
            model = get_model(path).to(device)
            with torch.no_grad():
                return model(x).argmax()


        def finetune(path, x, device):
            model = get_model(path).to(device).train()
            return model(x).sum()
        """,
    # `train(was_training)` puts the mode back: the rollout is not run in evaluation
    "rollout_restored.py": """
        import torch


        class Agent:
            @torch.no_grad()
            def generate(self, x):
                was_training = self.net.training
                self.net.eval()
                out = self.net(x)
                self.net.train(was_training)
                return out

            def rollout(self, x):
                return self.net(x).sum()
        """,
    # attention in a custom autograd Function's backward: a backward pass, never evaluation
    "autograd_backward_attention.py": """
        import torch
        import torch.nn.functional as F


        class Recompute(torch.autograd.Function):
            @staticmethod
            def forward(ctx, q, k, v, p):
                ctx.save_for_backward(q, k, v)
                ctx.p = p
                return F.scaled_dot_product_attention(q, k, v, dropout_p=0.0)

            @staticmethod
            def backward(ctx, grad):
                q, k, v = ctx.saved_tensors
                with torch.enable_grad():
                    out = F.scaled_dot_product_attention(q, k, v, dropout_p=ctx.p)
                return torch.autograd.grad(out, (q, k, v), grad) + (None,)
        """,
    # SDPA's reference math copied by hand: `dropout_p` 0.0 by default, and no call sets it (or sets it to 0 by
    # position)
    "sdpa_reference.py": """
        import math

        import torch
        import torch.nn.functional as F


        def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False):
            attn_weight = query @ key.transpose(-2, -1) / math.sqrt(query.size(-1))
            attn_weight = torch.softmax(attn_weight, dim=-1)
            attn_weight = torch.dropout(attn_weight, dropout_p, train=True)
            return attn_weight @ value


        class Attention(torch.nn.Module):
            def mix(self, x, p=0.0):
                return F.dropout(x, p, training=True)

            def forward(self, q, k, v):
                return self.mix(scaled_dot_product_attention(q, k, v), 0.0)
        """,
    # the same loader, its model run under no_grad, or trained by the class
    "stored_loader_ok.py": STORED_LOADER
    + """
            @torch.no_grad()
            def predict(self, x):
                return self.model(x)


        class FineTuner:
            def __init__(self, path):
                self.model = self._load(path)

            def _load(self, path):
                return torch.load(path).eval()

            def fit(self, x):
                self.model.train()
                return self.model(x).sum().backward()

            def score(self, x):
                return self.model(x)
        """,
    # eval() in one branch, a model built in the other (another package's, its own grad mode) run there
    "exclusive_branches.py": """
        import torch
        from otherpkg import Extractor


        def features(kind, path, x):
            if kind == "mine":
                model = torch.load(path)
                model.eval()
                with torch.no_grad():
                    out = model(x)
            else:
                model = Extractor(path)
                out = model(x)
            return out


        def features_elif(kind, path, x):
            if kind == "mine":
                model = torch.load(path)
                model.eval()
            elif kind == "theirs":
                model = Extractor(path)
                return model(x)
            return None
        """,
    # a step called by hand under no_grad; a module's step calling its own other step (Lightning runs both)
    "step_by_hand_ok.py": """
        import lightning.pytorch as pl
        import torch


        def predict(model, loader):
            model.eval()
            with torch.no_grad():
                return [model.predict_step(batch, i) for i, batch in enumerate(loader)]


        class Model(pl.LightningModule):
            def test_step(self, batch, batch_idx):
                self.eval()
                return self.validation_step(batch, batch_idx)
        """,
    "frozen.py": """
        import copy

        import pytest
        import torch


        def features(extractor, images):
            extractor.eval().requires_grad_(False)
            return extractor(images)


        def teacher_logits(teacher, x):
            teacher.eval()
            for p in teacher.parameters():
                p.requires_grad = False
            return teacher(x)


        def normalise(x):
            norm = torch.nn.InstanceNorm1d(4)
            norm.eval()
            return norm(x)


        def check_rejects_bad_shapes(model, x):
            model.eval()
            with pytest.raises(ValueError):
                model(x)


        def ema(G, decay):
            G = G.requires_grad_(False)
            G_ema = copy.deepcopy(G).eval()
            for p_ema, p in zip(G_ema.parameters(), G.parameters()):
                p_ema.copy_(p.lerp(p_ema, decay))
            return G_ema(torch.zeros(1))


        class EMA:
            def __init__(self, model):
                self.ema_model = copy.deepcopy(model)
                for param in self.ema_model.parameters():
                    param.detach_()

            def update(self, model, momentum):
                for ema_p, model_p in zip(self.ema_model.parameters(), model.parameters()):
                    ema_p.mul_(1.0 - momentum).add_(model_p.data, alpha=momentum)

        class Predictor:
            # Lightning's `freeze()` turns requires_grad off on every parameter (MLOps-Basics' predictors)
            def __init__(self, path):
                self.model = ColaModel.load_from_checkpoint(path)
                self.model.eval()
                self.model.freeze()

            def predict(self, ids):
                return self.model(ids).softmax(-1).tolist()


        def predict(path, ids):
            model = ColaModel.load_from_checkpoint(path)
            model.eval().freeze()
            return model(ids).argmax(-1)


        class FrozenAtSetup:
            def setup(self):
                self.net.freeze()

            def predict(self, ids):
                self.net.eval()
                return self.net(ids).argmax(-1)
        """,
    "zero_dropout.py": """
        import torch
        import torch.nn.functional as F


        def attention(q, k, v, dropout_p=0.0, training=True):
            if not training:
                dropout_p = 0.0
            attn = torch.softmax(q @ k.transpose(-2, -1), dim=-1)
            if dropout_p > 0.0:
                attn = F.dropout(attn, p=dropout_p)
            return attn @ v


        class Sampler:
            @torch.no_grad()
            def sample(self, x, steps, noise_dropout=0.0):
                for _ in range(steps):
                    x = self.step(x, noise_dropout=noise_dropout)
                return x

            def step(self, x, noise_dropout=0.0):
                def noisy(y):
                    if noise_dropout > 0.0:
                        return torch.nn.functional.dropout(y, p=noise_dropout)
                    return y

                return noisy(x)


        class Recompute(torch.autograd.Function):
            @staticmethod
            def forward(ctx, q, k, v):
                ctx.save_for_backward(q, k, v)
                return F.scaled_dot_product_attention(q, k, v, dropout_p=0.0)

            @staticmethod
            def backward(ctx, grad):
                q, k, v = ctx.saved_tensors
                with torch.enable_grad():
                    out = F.scaled_dot_product_attention(q, k, v, dropout_p=0.1)
                    out = F.dropout(out, 0.1)
                return torch.autograd.grad(out, (q, k, v), grad)


        class FineAttention(torch.nn.Module):
            def __init__(self, config):
                super().__init__()
                self.dropout = config.dropout
                self.flash = hasattr(F, "scaled_dot_product_attention") and self.dropout == 0.0

            def forward(self, q, k, v):
                if self.flash:
                    return F.scaled_dot_product_attention(q, k, v, dropout_p=self.dropout)
                return torch.softmax(q @ k.transpose(-2, -1), dim=-1) @ v


        def attend(q, k, v, p):
            if p > 0:
                v = v * 2
            else:
                q = F.dropout(q, p)
            if not p:
                k = F.dropout(k, p)
            if p == 0 and q is not None:
                v = F.dropout(v, p)
            return F.scaled_dot_product_attention(q, k, v)
        """,
    "clipping.py": """
        import torch


        def clip(model, max_norm):
            total_norm = torch.norm(torch.stack([p.grad.norm() for p in model.parameters()]))
            clip_coef = max_norm / (total_norm + 1e-6)
            for p in model.parameters():
                p.grad.mul_(clip_coef.to(p.device))
        """,
    "grad_from_callers.py": """
        import torch


        class Pipeline:
            def encode_prompt(self, prompt):
                self.text_encoder.eval()
                return self.text_encoder(prompt)

            @torch.no_grad()
            def __call__(self, prompt):
                return self.encode_prompt(prompt)


        @torch.no_grad()
        def evaluate(model, loader):
            def run(x):
                model.eval()
                return model(x)

            return list(map(run, loader))


        class Generator(torch.nn.Module):
            def forward(self, x):
                self.decoder.eval()
                return self.decoder(x)

            @torch.no_grad()
            def generate(self, x):
                return self(x)


        def ema_update(ema, model):
            for p_ema, p in zip(ema.parameters(), model.parameters()):
                p_ema.mul_(0.9).add_(p, alpha=0.1)


        def train_step(ema, model):
            with torch.no_grad():
                ema_update(ema, model)
        """,
    "branches_shared.py": RUN_EPOCH.format(grad="")
    + """

        def attack(model, x):
            model.eval()
            x.requires_grad_()
            loss = model(x).sum()
            loss.backward()
            return x.grad
        """,
    "followed_ok.py": """
        import torch


        @torch.no_grad()
        def evaluate(model, loader):
            return [model(x) for x in loader]


        def evaluate_inside(model, loader):
            with torch.no_grad():
                return [model(x) for x in loader]


        def validate(net, loader):
            net.eval()
            return evaluate(net, loader), evaluate_inside(net, loader)


        def generate_text(model, tokens):
            model.eval()
            return model.generate(tokens), model.encode(tokens)


        class PerceptualLoss(torch.nn.Module):
            def __init__(self, vgg):
                super().__init__()
                self.vgg = vgg
                self.vgg.eval()

            def forward(self, x, y):
                return (self.vgg(x) - self.vgg(y)).abs().mean()

            def compute_loss(self, x, y):
                return self.vgg(x).sum()


        class Frozen:
            def __init__(self, teacher):
                self.teacher = teacher
                self.teacher.eval()
                self.teacher.requires_grad_(False)

            def soft_labels(self, x):
                return self.teacher(x)


        class Attack:
            def __init__(self, model):
                self.model = model
                self.model.eval()

            def _forward(self, x):
                return self.model(x)

            def gradient(self, x):
                x.requires_grad_()
                return torch.autograd.grad(self._forward(x).sum(), x)
        """,
    "judged_where_called.py": """
        import torch


        class Detector(torch.nn.Module):
            def __init__(self, model):
                super().__init__()
                self.model = model

            def forward(self, x):
                self.model.eval()
                return self.model(x)


        class HeteroskedasticNoise(torch.nn.Module):
            def forward(self, X):
                self.noise_model.eval()
                try:
                    output = self.noise_model(X)
                finally:
                    self.noise_model.train()
                return output.mean


        def get_descriptors(img, descriptor):
            descriptor.eval()
            return descriptor(img).view(img.shape[0], -1)


        class Descriptor(torch.nn.Module):
            def forward(self, img):
                return get_descriptors(img, self.descriptor)
        """,
    "nested_called_under_no_grad.py": NESTED_VALIDATION.format(
        expect="",
        helpers="""
            def evaluate_all(loaders):
                def one(data):
                    model.eval()
                    return [model(x) for x in data]

                with torch.no_grad():
                    return [one(data) for data in loaders]
""",
    )
    + """                evaluate_all([valid_loader])


        def valid_fn(model, data):
            return [model(x).sum().backward() for x in data]


        def train(model, loader):
            valid_fn(model, loader)
        """,
    "sample_of_its_own_class.py": SAMPLERS.format(expect="") + TUNED.format(built="Synthesizer()"),
    "sample_of_a_subclass.py": SAMPLERS.format(expect="") + TUNED.format(built="Child()"),
    "sample_of_a_class_defined_twice.py": SAMPLERS.format(expect="")
    + """

        if FAST:

            class Twin(Synthesizer):
                pass

        else:

            class Twin:
                def sample(self, n):
                    return torch.randn(n, 4)
        """
    + TUNED.format(built="Twin()"),
    "sample_of_a_parameter.py": SAMPLERS.format(expect="")
    + """

        def tune(synth=None):
            if synth is None:
                synth = Sampler()
            synth.sample(4).sum().backward()
        """,
    "sample_of_a_name_bound_twice.py": SAMPLERS.format(expect="")
    + """

        def tune():
            synth = Sampler()
            for synth in (synth, Synthesizer()):
                synth.sample(4).sum().backward()
        """,
    "sample_of_an_attribute_stored_twice.py": SAMPLERS.format(expect="")
    + """

        class Holder:
            def __init__(self):
                self.synth = Sampler()

            def reset(self):
                self.synth, self.steps = Synthesizer(), 0

            def tune(self):
                self.synth.sample(4).sum().backward()
        """,
    "class_held_model_hands_tensor_back.py": HELD_ENERGY
    + """
            def energy_of(self, x):
                return self.energy(x).float()

            def train_fitness_predictor(self, x):
                return -1 * self.energy(x).detach().cpu().numpy()
        """,
    "helper_method_ok.py": """
        import torch


        class Exp:
            def _process_one_batch(self, x, y):
                return self.model(x), y

            def _step(self, x, y, optimizer):
                loss = torch.nn.functional.mse_loss(self.model(x), y)
                loss.backward()
                optimizer.step()

            @torch.no_grad()
            def _predict(self, x):
                return self.model(x)

            def vali(self, loader, optimizer):
                self.model.eval()
                with torch.no_grad():
                    for x, y in loader:
                        pred, true = self._process_one_batch(x, y)
                for x, y in loader:
                    self._predict(x)
                    self._step(x, y, optimizer)
        """,
    "global_model_ok.py": """
        import torch

        vgg = torch.load("vgg.pt")
        vgg.eval()
        student = torch.load("student.pt")
        student.eval()


        def perceptual(x, y):
            return (vgg(x) - vgg(y)).abs().mean()


        def features(x):
            return vgg(x).flatten(1)


        def train_step(x, y, optimizer):
            loss = perceptual(student(x), y)
            loss.backward()
            optimizer.step()


        def distill(x, optimizer):
            student.train()
            student(x).sum().backward()


        @torch.no_grad()
        def evaluate(loader):
            return [vgg(x).mean().item() for x in loader]


        def evaluate_local(loader, path):
            vgg = torch.load(path)
            return [vgg(x) for x in loader]


        def evaluate_param(vgg, loader):
            return [vgg(x) for x in loader]
        """,
    "input_made_to_require_grad.py": """
        import torch
        from torch import nn


        class Saliency(nn.Module):
            def __init__(self, net):
                super().__init__()
                self.net = net

            def forward(self, x):
                x = x.detach().requires_grad_()  # the caller differentiates the output w.r.t. its input
                return self.net(x), x


        def explain(model, image):
            model.eval()
            return model(image)
        """,
    "energy_model.py": """
        import torch
        from torch import nn


        class UnrollEnergy(nn.Module):
            def __init__(self, energy, steps):
                super().__init__()
                self.energy = energy
                self.steps = steps

            def forward(self, x):
                y = torch.zeros(x.size(0), 10, requires_grad=True)
                for _ in range(self.steps):
                    (g,) = torch.autograd.grad(self.energy(x, y).sum(), y, create_graph=self.training)
                    y = y - 0.1 * g
                return y


        def test(model, loader):
            model.eval()
            correct = 0
            for x, target in loader:
                correct += model(x).argmax(1).eq(target).sum().item()
            return correct
        """,
    "input_gradients.py": """
        import torch
        from torch import nn


        class Physics(nn.Module):
            def __init__(self, net):
                super().__init__()
                self.net = net

            def forward(self, x):
                x.requires_grad_(True)
                u = self.net(x)
                (du,) = torch.autograd.grad(u.sum(), x, create_graph=self.training)
                return du


        def evaluate(model, points):
            model.eval()
            return float(model(points).abs().mean())
        """,
    "posterior.py": """
        import torch


        class GP(torch.nn.Module):
            def posterior(self, X):
                self.eval()
                mvn = self(X)
                posterior = Posterior(distribution=mvn)
                return posterior
        """,
    "poisoning.py": """
        import torch


        class Poisoning:
            def _forward(self, x, edge_index, edge_weight):
                self.model.reset_parameters()
                with torch.enable_grad():
                    self.fit(x, edge_index, edge_weight)
                self.model.eval()
                return self.model(x, edge_index, edge_weight)
        """,
    "executors_ok.py": """
        from concurrent.futures import ThreadPoolExecutor

        import numpy as np
        import torch
        import torchaudio


        def score(model, x):
            with torch.no_grad():
                return model(x)


        def encode(mask):
            return np.asarray(mask).tobytes()


        @torch.no_grad()
        def transcribe(model, audio):
            return model(audio).argmax(-1)


        def worker(model, items, stream):
            # Its torch work is in a function decorated no_grad, which the thread runs as decorated; the stream's
            # synchronize() computes nothing.
            stream.synchronize()
            return [transcribe(model, item) for item in items]


        def save_audio(paths, audio, lengths):
            # writes out outputs made under no_grad (icefall's inference recipes): nothing is computed
            for path, wav, length in zip(paths, audio, lengths):
                torchaudio.save(path, wav[:, :length], sample_rate=16000)
                torch.save(wav, path + ".pt")


        def save_spectrum(path, audio):
            # computes a spectrum of audio made where gradients were off, and writes it: no parameter, no graph
            torch.save(torch.stft(audio, 400, return_complex=True), path)


        def save_all(paths, audio):
            # a helper of the file that only writes
            save_audio(paths, audio, [len(wav) for wav in audio])


        def log_pieces(self, cuts, queue):
            # a worker handed a tokenizer and a formatter (icefall's recogniser, pytorch-3dunet's image logger)
            for cut, tokens in zip(cuts, queue.get()):
                self.writer.add_image(cut.id, self.formatter(cut.id, tokens))
                self.sp.decode(tokens)


        class Model(torch.nn.Module):
            def validation_step(self, batch, batch_idx):
                with ThreadPoolExecutor(2) as pool:
                    rles = list(pool.map(encode, batch))
                    first = pool.submit(score, self, batch)
                    second = pool.submit(worker, self, batch, torch.cuda.current_stream())
                    third = pool.submit(save_audio, batch.paths, batch.audio, batch.lengths)
                    fourth = pool.submit(save_spectrum, "out.pt", batch.audio)
                    fifth = pool.submit(log_pieces, self, batch.cuts, batch.queue)
                    sixth = pool.submit(save_all, batch.paths, batch.audio)
                return rles, first, second, third, fourth, fifth, sixth
        """,
    "saliency.py": """
        import torch


        @torch.enable_grad()
        def saliency(model, x):
            x.requires_grad_()
            model(x).sum().backward()
            return x.grad
        """,
    "script_grad.py": """
        import torch


        def main():
            torch.set_grad_enabled(False)
            print("sampling")


        if __name__ == "__main__":
            main()
        """,
    "launched_main_ok.py": """
        import torch


        def main(args):
            for iteration in range(args.steps):
                train_step(iteration)
                if iteration % 100 == 0:
                    torch.set_grad_enabled(False)
                    validate()
                    torch.set_grad_enabled(True)


        if __name__ == "__main__":
            if ARGS.gpus == 0:
                main(ARGS)
            else:
                torch.multiprocessing.spawn(main, args=(ARGS,), nprocs=ARGS.gpus)
        """,
    "sgd_ok.py": """
        import torch

        w = torch.randn(3, requires_grad=True)


        def fit(x, y, lr=0.1):
            loss = ((x @ w - y) ** 2).mean()
            loss.backward()
            with torch.no_grad():
                w -= lr * w.grad
            w.grad.zero_()
            w.data.sub_(lr * w.grad)
        """,
    "project_decorator.py": """
        from utils.torch_utils import smart_inference_mode


        @smart_inference_mode()
        def run(model, loader):
            model.eval()
            return [model(x) for x in loader]
        """,
    "tests/test_model.py": """
        import torch


        def test_eval_output(model, x):
            model.eval()
            assert model(x).shape == x.shape


        class TestOptimWrapper:
            def test_step(self, wrapper, loss):
                wrapper.backward(loss)
        """,
    "test_utils.py": """
        from concurrent.futures import ThreadPoolExecutor

        import torch


        def check(model, x):
            model.eval()
            return model(x)


        @torch.no_grad()
        def check_threads(model, xs):
            with ThreadPoolExecutor(2) as pool:
                return list(pool.map(check, [model] * len(xs), xs))
        """,
    "helpers.py": """
        def test_forward(model, x):
            model.eval()
            return model(x)
        """,
}


@pytest.fixture(scope="module")
def bugs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, LintRun]:
    return linted_tree(tmp_path_factory.mktemp("wild") / "bugs", BUGS)


@pytest.fixture(scope="module")
def correct(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, LintRun]:
    return linted_tree(tmp_path_factory.mktemp("wild") / "correct", CORRECT)


@pytest.mark.parametrize("name", sorted(name for name in BUGS if name.endswith(".py") and "__init__" not in name))
def test_each_bug_is_found_on_its_line(bugs: tuple[Path, LintRun], name: str) -> None:
    root, run = bugs
    expected = {found for found in expected_findings(root) if found[0] == name}
    assert expected, f"{name} marks no expected finding"
    assert {found for found in run.findings() if found[0] == name} == expected, run.stdout


@pytest.mark.parametrize("name", sorted(CORRECT))
def test_correct_look_alikes_stay_silent(correct: tuple[Path, LintRun], name: str) -> None:
    _, run = correct
    assert not {found for found in run.findings() if found[0] == name}, run.stdout


def test_tests_setting_checks_test_code_too(tmp_path: Path) -> None:
    """``tests = true`` (or ``--tests``) turns GM501 and GM801 on in test files and test functions."""
    files = {name: CORRECT[name] for name in ("tests/test_model.py", "test_utils.py", "helpers.py")}
    root, run = linted_tree(tmp_path, files)
    assert run.findings() == set()
    expected = {("tests/test_model.py", 6, "GM501"), ("test_utils.py", 8, "GM501"), ("helpers.py", 3, "GM501")}
    assert run_lint(root, ".", "--tests").findings() >= expected
    (root / "pyproject.toml").write_text("[tool.gradmode-lint]\ntests = true\n")
    run = run_lint(root, ".")
    assert run.findings() >= expected and ("test_utils.py", 14, "GM801") in run.findings(), run.stdout
    (root / "pyproject.toml").write_text('[tool.gradmode-lint]\ntests = "yes"\n')
    run = run_lint(root, ".")
    assert run.returncode == 2 and "tests must be true or false" in run.stderr


def test_messages_say_where_the_mode_was_set(bugs: tuple[Path, LintRun]) -> None:
    _, run = bugs
    lines = {line.split(" ", 1)[0]: line for line in run.stdout.splitlines()}
    vocoder, model = lines["followed_in_class.py:15:16:"], lines["stored_loader.py:14:16:"]
    assert "`self.vocoder` is in evaluation (put in `eval()` in `__init__`, line 12)" in vocoder
    assert "`self.model` is in evaluation (put in `eval()` in `__init__`, line 6)" in model
    assert "runs `model(...)` in `evaluate` (line 11)" in lines["followed.py:22:12:"]
    assert (
        "computed from `self.training` in `__init__` (line 8), where it is always True"
        in (lines["init_training.py:12:15:"])
    )
    probe = [line for name, line in lines.items() if name.startswith("linear_probe.py:")]
    assert len(probe) == 2
    detached = (
        "its output is only ever detached (`.detach()`, `.item()`, `.data`, `torch.tensor(...)`): the graph is recorded"
    )
    assert all(detached in line for line in probe)
    assert "detached" not in lines["branches.py:14:19:"]
