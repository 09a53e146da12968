"""``python3 -m openacl.infer``: run a recipe over pictures (or any files) with a model on a device.

    python3 -m openacl.infer --model_path models/shapes/shapes.onnx \\
        --input_path models/shapes/images --device_id 0 --labels models/shapes/labels.txt

The runner owns the ACL resources and the order they are released in
(docs: Session); a recipe (``openacl.recipes``, ``--recipe``) turns each
file into model input and each output into an answer.  ``classify`` is the
default and the twin of ``openacl infer --recipe classify``: the same
preprocessing numbers and the same report.

Under ``mpirun -n N`` (Open MPI's OMPI_COMM_WORLD_* variables, or PMI_RANK
and PMI_SIZE) each rank runs its share of the executions, contiguous in file
order, on device local rank mod the visible devices unless --device_id is
given, and writes its files' outputs as a single run would; rank 0 prints
every answer in order, writes results.json and one summary for the job.
The ranks talk through mpi4py (python3-mpi4py); a rank that fails prints its
error and aborts the job (MPI_Abort), so no rank waits for it.

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


_RANK = ""  # "rank N: " under mpirun, so that the job's mixed stderr says who failed


def _error(message: str) -> None:
    print(f"openacl.infer: {_RANK}error: {message}", file=sys.stderr, flush=True)


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
    p.add_argument("--device_id", "--device", dest="device_id", metavar="N", type=int, default=None,
                   help="the device id (default 0; under mpirun the local rank modulo the visible devices), "
                        "checked against the visible devices before acl.init")
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

    def __init__(self, args: argparse.Namespace, recipe: Any, files: List[str],
                 shard: Optional["_Shard"] = None) -> None:
        self.args, self.recipe, self.files = args, recipe, files
        self.shard = shard
        self.session: Any = None
        self.answers: List[Any] = []
        self.reports: List[str] = []  # under mpirun, ranks other than 0: printed by rank 0
        self.latencies: List[float] = []  # ms per execution (recipe.infer)
        self.done = 0  # files run
        self.run_ms = 0.0
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
        starts = list(range(0, len(files), n_per))
        if self.shard is not None:
            starts = starts[self.shard.share(len(starts))]
        t_run = time.perf_counter()
        for start in starts:
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
            t0 = time.perf_counter()
            outs = self.recipe.infer(self.session, batch)
            self.latencies.append((time.perf_counter() - t0) * 1000)
            self.executions += 1
            for j, path in enumerate(chunk):
                # each output's item j, where the output has the batch axis
                mine = [o[j] if items_in_batch and isinstance(o, np.ndarray) and o.ndim and
                        o.shape[0] == items_in_batch else o for o in outs]
                answer = self.recipe.postprocess(path, mine)
                report = self.recipe.report(path, answer)
                if self.shard is None or self.shard.rank == 0:
                    print(report, flush=True)
                else:
                    self.reports.append(report)
                self.answers.append(answer)
                self.done += 1
                if out_dir:
                    self._write(out_dir, path, answer, mine)
        self.run_ms = (time.perf_counter() - t_run) * 1000
        if out_dir and self.shard is None:
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


class _Shard:
    """This process's place in an mpirun job, and the job's communicator (mpi4py)."""

    def __init__(self, rank: int, size: int, local_rank: int, local_size: int) -> None:
        self.rank, self.size, self.local_rank, self.local_size = rank, size, local_rank, local_size
        self.comm: Any = None

    @staticmethod
    def detect() -> Optional["_Shard"]:
        """From the launcher's variables; None for a plain run (or a job of one rank)."""
        def first(*names: str) -> Optional[str]:
            for n in names:
                v = os.environ.get(n)
                if v:
                    return v
            return None
        rank, size = first("OMPI_COMM_WORLD_RANK", "PMI_RANK"), first("OMPI_COMM_WORLD_SIZE", "PMI_SIZE")
        if rank is None or size is None:
            return None
        try:
            r, n = int(rank), int(size)
            local = int(first("OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID") or r)
            local_n = int(first("OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS") or n)
        except ValueError:
            raise _Fail(f"the launcher's rank or size is not a number: rank {rank!r}, size {size!r}") from None
        return _Shard(r, n, local, local_n) if n > 1 else None

    def share(self, n: int) -> slice:
        """The executions of n this rank runs: contiguous, in order (as ``openacl infer`` splits them)."""
        return slice(n * self.rank // self.size, n * (self.rank + 1) // self.size)

    def share_cores(self) -> None:
        """Unless OPENACL_EXECUTOR_THREADS is set: the cores this rank is bound to, or its share of the
        node's (every rank taking every core oversubscribes them, and OpenMP teams spin)."""
        if os.environ.get("OPENACL_EXECUTOR_THREADS"):
            return
        online = os.cpu_count() or 1
        try:
            mine = len(os.sched_getaffinity(0))
        except (AttributeError, OSError):
            mine = online
        threads = mine if mine < online else online // max(self.local_size, 1)
        os.environ["OPENACL_EXECUTOR_THREADS"] = str(min(max(threads, 1), 256))

    def join(self) -> None:
        try:
            from mpi4py import MPI  # MPI_Init: collective over the job
        except ImportError as exc:
            raise _Fail(f"running under mpirun ({self.size} ranks) needs mpi4py (Debian: python3-mpi4py): "
                        f"{exc}") from None
        self.comm = MPI.COMM_WORLD
        if self.comm.Get_size() != self.size:
            raise _Fail(f"the launcher says {self.size} ranks but mpi4py's MPI sees {self.comm.Get_size()}: "
                        "launch with the mpirun of the MPI that mpi4py was built with")

    def abort(self, code: int) -> None:
        """Ends the whole job: this rank's error is printed already."""
        sys.stdout.flush()
        sys.stderr.flush()
        if self.comm is not None:
            self.comm.Abort(code or EXIT_FAIL)

    def finish(self, runner: "_Runner", files: List[str], wall_ms: float, quiet: bool) -> None:
        """Rank 0: the other ranks' answers in order, results.json and the job's summary."""
        mine = {"device": runner.args.device_id, "files": runner.done, "executions": runner.executions,
                "run_ms": runner.run_ms, "latencies": runner.latencies,
                "reports": runner.reports, "answers": runner.answers}
        every = self.comm.gather(mine, root=0)
        if self.rank != 0:
            return
        for r in every[1:]:
            for line in r["reports"]:
                print(line, flush=True)
        out_dir = runner.args.output
        if out_dir:
            answers = [a for r in every for a in r["answers"]]
            with open(os.path.join(out_dir, "results.json"), "w") as f:
                json.dump(answers, f, indent=1, default=recipes._json_default)
                f.write("\n")
        if quiet:
            return
        done = sum(r["files"] for r in every)
        execs = sum(r["executions"] for r in every)
        slowest = max(r["run_ms"] for r in every)
        rate = done * 1000 / slowest if slowest > 0 else 0.0
        print(f"openacl.infer: {done} file{'s' if done != 1 else ''} in {execs} execution{'s' if execs != 1 else ''} "
              f"on {self.size} ranks, {wall_ms:.1f} ms; {rate:.1f} files/s (the slowest rank ran "
              f"{slowest:.1f} ms)", file=sys.stderr)
        for k, r in enumerate(every):
            lat = sorted(r["latencies"])
            spread = (f"p50 {float(np.median(lat)):.3f} ms, min {lat[0]:.3f} ms, max {lat[-1]:.3f} ms"
                      if lat else "no executions")
            print(f"openacl.infer:   rank {k}: device {r['device']}, {r['files']} files in {r['executions']} "
                  f"executions ({len(lat)} timed), {spread}, {r['run_ms']:.1f} ms", file=sys.stderr)


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

    try:
        shard = _Shard.detect()
    except _Fail as f:
        _error(str(f))
        return f.code
    if shard is None:
        return _main(args, cls, None)
    global _RANK
    _RANK = f"rank {shard.rank}: "
    shard.share_cores()
    if args.device_id is None:
        count, _ = _runtime.visible_devices()
        args.device_id = shard.local_rank % count if count > 0 else 0
    try:
        shard.join()
    except _Fail as f:
        _error(str(f))
        return f.code
    code = _main(args, cls, shard)
    if code != EXIT_OK:
        shard.abort(code)
    return code


def _main(args: argparse.Namespace, cls: type, shard: Optional[_Shard]) -> int:
    if args.device_id is None:
        args.device_id = 0
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

    runner = _Runner(args, recipe, files, shard)
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
    if code == EXIT_OK and shard is not None:
        shard.finish(runner, files, (time.perf_counter() - t0) * 1000, args.quiet)
    elif code == EXIT_OK and not args.quiet:
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
