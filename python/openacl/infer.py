"""``python3 -m openacl.infer``: run a recipe over pictures (or any files) with a model on a device.

    python3 -m openacl.infer --model_path models/shapes/shapes.onnx \\
        --input_path models/shapes/images --device_id 0 --labels models/shapes/labels.txt

The runner owns the ACL resources and the order they are released in
(docs: Session); a recipe (``openacl.recipes``, ``--recipe``) turns each
file into model input and each output into an answer.  ``classify`` is the
default and the twin of ``openacl infer --recipe classify``: the same
preprocessing numbers and the same report.

Before ``acl.init`` the runner checks what it can: the device id against
the devices the environment makes visible (OPENACL_DEVICE_COUNT,
ASCEND_VISIBLE_DEVICES, ASCEND_RT_VISIBLE_DEVICES), the model file, the
inputs.  Ctrl-C stops the run; the release sequence still runs in full and
the exit status is 130.  Exit status: 0 done, 1 a failure, 2 a usage error.
"""
from __future__ import annotations

import argparse
import importlib
import json
import logging
import os
import signal
import sys
import time
from typing import Any, List, Optional, Sequence, Tuple

import numpy as np

from . import _runtime, recipes
from .errors import AclError
from .recipes import RecipeError

__all__ = ["main", "list_files"]

PROG = "python3 -m openacl.infer"
EXIT_OK, EXIT_FAIL, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


class _Fail(Exception):
    def __init__(self, message: str, code: int = EXIT_FAIL) -> None:
        super().__init__(message)
        self.code = code


def _error(message: str) -> None:
    print(f"openacl.infer: error: {message}", file=sys.stderr, flush=True)


def _base_parser(add_help: bool) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog=PROG,
        add_help=add_help,
        description="Runs a recipe (default: classify) over a file or a folder of files with an ONNX model on an "
                    "openacl device and prints one answer per file.",
        epilog="Exit status: 0 done, 1 a failure, 2 a usage error, 130 interrupted (Ctrl-C). "
               "Recipes: " + ", ".join(recipes.names()) + "; or MODULE:CLASS for your own (see openacl.recipes).",
    )
    p.add_argument("--model_path", "--model", dest="model_path", metavar="FILE", required=add_help,
                   help="the ONNX model")
    p.add_argument("--input_path", "--input", dest="input_path", metavar="FILE_OR_DIR", required=add_help,
                   help="a file, or a folder whose files the recipe reads (taken in byte order of their names)")
    p.add_argument("--device_id", "--device", dest="device_id", metavar="N", type=int, default=0,
                   help="the device id (default 0), checked against the visible devices before acl.init")
    p.add_argument("--recipe", metavar="NAME|MODULE:CLASS", default="classify",
                   help="the recipe (default classify); MODULE:CLASS imports your own")
    p.add_argument("--recipe-module", "--recipe_module", dest="recipe_modules", metavar="MODULE", action="append",
                   default=[], help="import MODULE first (it registers recipes with openacl.recipes.register); "
                                    "repeatable")
    p.add_argument("--output", "--output_path", dest="output", metavar="DIR",
                   help="also write each file's answer (FILE.json), its outputs (FILE.out<k>.npy) and "
                        "results.json (every answer, in order) to DIR")
    p.add_argument("--batch", "--batch_size", dest="batch", metavar="N", type=int, default=None,
                   help="files per execution (default 1, or the model's fixed batch)")
    p.add_argument("--config", metavar="ACL_JSON", default=None, help="an acl.json for acl.init")
    p.add_argument("--quiet", action="store_true", help="no summary line on stderr")
    p.add_argument("--verbose", action="store_true", help="log the ACL resources as they are made and released")
    return p


def _load_recipe_class(argv: Sequence[str]) -> Tuple[type, argparse.Namespace]:
    pre = _base_parser(add_help=False)
    known, _ = pre.parse_known_args(argv)
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())
    for mod in known.recipe_modules:
        try:
            importlib.import_module(mod)
        except ImportError as exc:
            raise _Fail(f"--recipe-module {mod}: cannot import it: {exc}", EXIT_USAGE) from None
    try:
        return recipes.resolve(known.recipe), known
    except (KeyError, ImportError) as exc:
        msg = exc.args[0] if exc.args else str(exc)
        raise _Fail(str(msg), EXIT_USAGE) from None


def list_files(path: str, recipe: Any) -> List[str]:
    """The files to run: ``path`` itself, or the files of folder ``path`` that the recipe
    accepts, in byte order of their names (as ``openacl infer`` takes them)."""
    if not os.path.exists(path):
        raise _Fail(f"--input_path '{path}': no such file or folder")
    if os.path.isdir(path):
        try:
            names = os.listdir(path)
        except OSError as exc:
            raise _Fail(f"--input_path '{path}': cannot open folder: {exc.strerror}") from None
        files = []
        for name in names:
            if name.startswith("."):
                continue
            full = f"{path}/{name}"
            if os.path.isfile(full) and recipe.accepts(full):
                files.append(full)
        if not files:
            raise _Fail(f"--input_path '{path}': the folder holds no files recipe '{_recipe_name(recipe)}' reads")
        return sorted(files, key=os.fsencode)
    if not os.path.isfile(path):
        raise _Fail(f"--input_path '{path}' is not a regular file or a folder")
    if not recipe.accepts(path):
        raise _Fail(f"recipe '{_recipe_name(recipe)}' does not read '{path}'")
    return [path]


def _recipe_name(recipe: Any) -> str:
    return getattr(recipe, "name", "") or type(recipe).__name__


def _as_list(item: Any) -> List[np.ndarray]:
    if isinstance(item, np.ndarray):
        return [item]
    if isinstance(item, (list, tuple)):
        return [np.asarray(a) for a in item]
    return [np.asarray(item)]


class _Runner:
    """One run of the recipe over the files; release() is the documented sequence."""

    def __init__(self, args: argparse.Namespace, recipe: Any, files: List[str]) -> None:
        self.args, self.recipe, self.files = args, recipe, files
        self.session: Any = None
        self.answers: List[Any] = []
        self.executions = 0

    def open(self) -> None:
        from .session import Session

        a = self.args
        self.session = Session(a.model_path, a.device_id, config=a.config)
        self.recipe.load_model(self.session)

    def batch_plan(self) -> Tuple[int, bool]:
        """(files per execution, whether short batches are padded to the model's fixed batch)."""
        ins = self.session.inputs
        fixed = 0
        if ins and ins[0].shape and ins[0].shape[0] > 0:
            fixed = ins[0].shape[0]
        want = self.args.batch
        if want is not None and want < 1:
            raise _Fail(f"--batch {want}: expected at least 1 file per execution", EXIT_USAGE)
        if fixed and want is not None and want != fixed:
            raise _Fail(f"--batch {want}: model '{self.args.model_path}' takes batches of exactly {fixed} "
                        f"(input {ins[0]})", EXIT_USAGE)
        return (fixed or want or 1), bool(fixed)

    def run(self) -> None:
        ins = self.session.inputs
        files = self.files
        # The first file tells whether the recipe's items lack the model's batch axis (a model
        # [3,H,W] rather than [N,3,H,W]): then each file is one execution, as it is.
        first = _as_list(self.recipe.preprocess(files[0]))
        rank0 = len(ins[0].shape) if ins and ins[0].shape is not None else None
        no_axis = rank0 is not None and first[0].ndim == rank0
        if no_axis:
            if self.args.batch not in (None, 1):
                raise _Fail(f"--batch {self.args.batch}: input {ins[0]} has no batch axis, so each file is one "
                            "execution", EXIT_USAGE)
            n_per, pad = 1, False
        else:
            n_per, pad = self.batch_plan()
        ready = {0: first}
        out_dir = self.args.output
        if out_dir:
            os.makedirs(out_dir, exist_ok=True)
        for start in range(0, len(files), n_per):
            chunk = files[start:start + n_per]
            items = [ready.pop(start + j, None) or _as_list(self.recipe.preprocess(p)) for j, p in enumerate(chunk)]
            if any(len(it) != len(items[0]) for it in items):
                raise _Fail(f"recipe '{_recipe_name(self.recipe)}' gave different numbers of arrays for the files "
                            f"of one batch ({', '.join(chunk)})")
            batch: List[np.ndarray] = []
            for k in range(len(items[0])):
                parts = [it[k] for it in items]
                if no_axis:
                    batch.append(np.ascontiguousarray(parts[0]))
                    continue
                if pad and len(parts) < n_per:
                    parts = parts + [parts[-1]] * (n_per - len(parts))
                batch.append(np.stack(parts))
            items_in_batch = 0 if no_axis else len(batch[0])  # the batch axis of the outputs
            outs = self.recipe.infer(self.session, batch)
            self.executions += 1
            for j, path in enumerate(chunk):
                # each output's item j, where the output has the batch axis
                mine = [o[j] if items_in_batch and isinstance(o, np.ndarray) and o.ndim and
                        o.shape[0] == items_in_batch else o for o in outs]
                answer = self.recipe.postprocess(path, mine)
                print(self.recipe.report(path, answer), flush=True)
                self.answers.append(answer)
                if out_dir:
                    self._write(out_dir, path, answer, mine)
        if out_dir:
            with open(os.path.join(out_dir, "results.json"), "w") as f:
                json.dump(self.answers, f, indent=1, default=recipes._json_default)
                f.write("\n")

    @staticmethod
    def _write(out_dir: str, path: str, answer: Any, outs: List[Any]) -> None:
        base = os.path.join(out_dir, os.path.basename(path))
        with open(base + ".json", "w") as f:
            json.dump(answer, f, indent=1, default=recipes._json_default)
            f.write("\n")
        for k, o in enumerate(outs):
            np.save(f"{base}.out{k}.npy", np.asarray(o))

    def release(self) -> None:
        """The recipe, then the Session: datasets and buffers, model, description, context, device, acl."""
        try:
            self.recipe.close()
        finally:
            if self.session is not None:
                self.session.close()


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Runs the command line ``argv`` (default: sys.argv[1:]); returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        cls, _ = _load_recipe_class(argv)
    except _Fail as f:
        _error(str(f))
        return f.code
    parser = _base_parser(add_help=True)
    add = getattr(cls, "add_arguments", None)
    if add is not None:
        add(parser)
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # --help (0) or a usage error (2), already printed
        return int(e.code or 0)
    if args.verbose:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("openacl.infer: %(message)s"))
        log = logging.getLogger("openacl")
        log.addHandler(handler)
        log.setLevel(logging.DEBUG)

    # Everything that can be refused without ACL is refused before acl.init.
    problem = _runtime.device_problem(args.device_id)
    if problem:
        _error(f"--device_id {args.device_id}: {problem}")
        return EXIT_USAGE
    if not os.path.isfile(args.model_path):
        why = "is a folder, not an ONNX file" if os.path.isdir(args.model_path) else "not found"
        _error(f"--model_path '{args.model_path}': model file {why}")
        return EXIT_FAIL
    try:
        recipe = cls(args)
    except RecipeError as exc:
        _error(str(exc))
        return exc.exit_code
    try:
        files = list_files(args.input_path, recipe)
    except _Fail as f:
        _error(str(f))
        recipe.close()
        return f.code

    runner = _Runner(args, recipe, files)
    state = {"interrupted": False, "cleaning": False}

    def on_sigint(signum: int, frame: Any) -> None:
        # The first Ctrl-C stops the run; later ones (or one while releasing) are
        # ignored so that the release sequence always runs to its end.
        if state["interrupted"] or state["cleaning"]:
            return
        state["interrupted"] = True
        raise KeyboardInterrupt

    previous = signal.getsignal(signal.SIGINT)
    in_main_thread = _is_main_thread()
    if in_main_thread:
        signal.signal(signal.SIGINT, on_sigint)
    code = EXIT_OK
    t0 = time.perf_counter()
    try:
        try:
            runner.open()
            runner.run()
        except KeyboardInterrupt:
            _error("interrupted (Ctrl-C); releasing the model, context and device")
            code = EXIT_INTERRUPTED
        except RecipeError as exc:
            _error(str(exc))
            code = exc.exit_code
        except _Fail as f:
            _error(str(f))
            code = f.code
        except AclError as exc:
            _error(str(exc))
            code = EXIT_FAIL
        except (OSError, ValueError, TypeError) as exc:
            _error(str(exc))
            code = EXIT_FAIL
        finally:
            state["cleaning"] = True
            try:
                runner.release()
            except KeyboardInterrupt:  # pragma: no cover - the handler ignores it while cleaning
                code = EXIT_INTERRUPTED
    finally:
        if in_main_thread:
            signal.signal(signal.SIGINT, previous)
    if code == EXIT_OK and not args.quiet:
        ms = (time.perf_counter() - t0) * 1000
        print(f"openacl.infer: {len(files)} file{'s' if len(files) != 1 else ''} in {runner.executions} "
              f"execution{'s' if runner.executions != 1 else ''} on device {args.device_id}, {ms:.1f} ms",
              file=sys.stderr)
    return code


def _is_main_thread() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:  # before anything was made (argument parsing, listing the inputs)
        _error("interrupted (Ctrl-C)")
        sys.exit(EXIT_INTERRUPTED)
