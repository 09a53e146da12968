"""Recipes: files a person has in, answers a person reads out, around a Session.

``python3 -m openacl.infer`` owns the Session, the batching of folders, the
loop, the ``--output`` files and the release sequence; a recipe owns what is
specific to a kind of model.  A recipe is a class (subclass ``Recipe``, or
any class with the same methods) whose methods the runner calls in this
order:

==========================  ===========================================================
``add_arguments(parser)``   classmethod: the recipe's own command-line options
``__init__(options)``       the parsed options (an ``argparse.Namespace``)
``load_model(session)``     after the model is loaded: check it suits the recipe (its
                            ``session.inputs`` / ``outputs``), read side files (labels)
``accepts(path)``           for each file of an input folder: whether the recipe reads it
``preprocess(path)``        one input item for the file, *without* the batch axis: an
                            array (input 0) or a list of arrays (one per input)
``infer(session, batch)``   each execution: the batched inputs (a list, in model order)
                            in, the outputs out; the default is ``session.run(batch)``
``postprocess(path, outs)`` the file's item of each output (batch axis removed): returns
                            the answer, a JSON-serialisable value (``--output`` files)
``report(path, answer)``    the text printed for the file (default: the answer as JSON)
``close()``                 at the end, also after errors
==========================  ===========================================================

A recipe reports a problem by raising ``RecipeError(message)`` (exit status 1)
or ``RecipeUsageError(message)`` (a bad option value: exit status 2).

Registering a recipe from your own module::

    import openacl.recipes

    @openacl.recipes.register
    class Argmax(openacl.recipes.Recipe):
        name = "argmax"
        ...

then ``python3 -m openacl.infer --recipe mymodule:Argmax ...`` (the class)
or ``--recipe-module mymodule --recipe argmax`` (the module, imported first,
registers it by name).  ``--recipe`` also takes ``mymodule:argmax`` (a
registered name after importing the module).
"""
from __future__ import annotations

import argparse
import importlib
import json
import os
from typing import Any, ClassVar, Dict, List, Optional, Sequence, Tuple, TypeVar, Union

import numpy as np

__all__ = [
    "Recipe",
    "RecipeError",
    "RecipeUsageError",
    "register",
    "get",
    "names",
    "resolve",
]


class RecipeError(Exception):
    """A recipe's failure, printed as one ``error:`` line; exit status 1."""

    exit_code = 1


class RecipeUsageError(RecipeError):
    """A bad option value for a recipe; exit status 2."""

    exit_code = 2


class Recipe:
    """The base class of recipes: every hook has a default but ``preprocess`` / ``postprocess``."""

    #: --recipe NAME
    name: ClassVar[str] = ""
    #: one line for --help
    summary: ClassVar[str] = ""
    #: file name endings the recipe reads (lower case, compared without regard to case); None: every file
    extensions: ClassVar[Optional[Tuple[str, ...]]] = None

    @classmethod
    def add_arguments(cls, parser: argparse.ArgumentParser) -> None:
        """Adds the recipe's options to the runner's parser (an argument group is fine)."""

    def __init__(self, options: Optional[argparse.Namespace] = None) -> None:
        self.options = options if options is not None else argparse.Namespace()

    def load_model(self, session: Any) -> None:
        """Checks the loaded model (``session.inputs``, ``session.outputs``) suits the recipe."""

    def accepts(self, path: str) -> bool:
        if self.extensions is None:
            return True
        return path.lower().endswith(tuple(e.lower() for e in self.extensions))

    def preprocess(self, path: str) -> Union[np.ndarray, Sequence[np.ndarray]]:
        raise NotImplementedError(f"recipe {self.name or type(self).__name__} has no preprocess()")

    def infer(self, session: Any, batch: List[np.ndarray]) -> List[np.ndarray]:
        return session.run(batch)

    def postprocess(self, path: str, outputs: List[np.ndarray]) -> Any:
        raise NotImplementedError(f"recipe {self.name or type(self).__name__} has no postprocess()")

    def report(self, path: str, answer: Any) -> str:
        return f"{path}: {json.dumps(answer, default=_json_default)}"

    def close(self) -> None:
        """Releases what the recipe holds; called once at the end, also after errors."""


def _json_default(v: Any) -> Any:
    if isinstance(v, np.ndarray):
        return v.tolist()
    if isinstance(v, np.generic):
        return v.item()
    raise TypeError(f"{type(v).__name__} is not JSON serialisable")


R = TypeVar("R", bound=type)
_registry: Dict[str, type] = {}


def register(recipe: Optional[R] = None, *, name: Optional[str] = None) -> Any:
    """Registers a recipe class under ``name`` (default: its ``name`` attribute).

    Usable as ``@register``, ``@register(name="x")`` or ``register(Cls)``.
    A later registration of the same name replaces the earlier one.
    """

    def add(cls: R) -> R:
        key = name or getattr(cls, "name", "") or ""
        if not isinstance(cls, type):
            raise TypeError(f"register() takes a recipe class, not {type(cls).__name__}")
        if not key:
            raise ValueError(f"recipe class {cls.__name__} has no name: set its `name` attribute or pass name=")
        for hook in ("preprocess", "postprocess"):
            if not callable(getattr(cls, hook, None)):
                raise TypeError(f"recipe class {cls.__name__} has no {hook}() method")
        _registry[key] = cls
        return cls

    if recipe is None:
        return add
    return add(recipe)


def _builtins() -> None:
    if "classify" not in _registry:
        importlib.import_module(__name__ + ".classify")  # registers itself


def names() -> List[str]:
    """The registered recipe names, sorted."""
    _builtins()
    return sorted(_registry)


def get(name: str) -> type:
    """The recipe class registered as ``name``; KeyError naming the known ones if none."""
    _builtins()
    try:
        return _registry[name]
    except KeyError:
        raise KeyError(f"no recipe is named '{name}' (known: {', '.join(sorted(_registry))}; "
                       "or give module:Class)") from None


def resolve(spec: str) -> type:
    """The recipe class for ``--recipe``: a registered name, ``module:Class`` or ``module:name``.

    Raises LookupError (KeyError, or ImportError for a module that cannot be
    imported) with a message saying what was tried.
    """
    if ":" not in spec:
        return get(spec)
    mod_name, _, attr = spec.partition(":")
    if not mod_name or not attr:
        raise KeyError(f"--recipe '{spec}': expected NAME, MODULE:CLASS or MODULE:NAME")
    try:
        mod = importlib.import_module(mod_name)
    except ImportError as exc:
        raise ImportError(f"--recipe '{spec}': cannot import module '{mod_name}': {exc} "
                          f"(the current folder, {os.getcwd()}, and PYTHONPATH are searched)") from None
    obj = getattr(mod, attr, None)
    if isinstance(obj, type):
        for hook in ("preprocess", "postprocess"):
            if not callable(getattr(obj, hook, None)):
                raise KeyError(f"--recipe '{spec}': {attr} has no {hook}() method, so it is not a recipe")
        return obj
    if attr in _registry:
        return _registry[attr]
    raise KeyError(f"--recipe '{spec}': module '{mod_name}' has no recipe class '{attr}' and registered none "
                   f"by that name")
