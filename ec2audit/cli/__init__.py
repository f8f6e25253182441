"""The `ec2audit` command: a click group whose commands are thin calls into the library.

Every module in this package that defines `command` (a click command or group) is registered, so
a new command is one new file. Heavy libraries are imported inside commands, keeping `--help` fast.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys

import click

from ec2audit import __version__
from ec2audit.errors import InputError
from ec2audit.extras import missing_extra

#: Exit codes: 0 all good; 1 done, but some input was skipped (each skip was reported);
#: 2 bad input or usage, nothing done.
EXIT_SKIPPED, EXIT_BAD_INPUT = 1, 2


class _Group(click.Group):
    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except InputError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(EXIT_BAD_INPUT)
        except ModuleNotFoundError as exc:  # a package of an extra that is not installed: name the extra
            extra = missing_extra(exc)
            if extra is None:
                raise
            click.echo(f"error: {extra}", err=True)
            sys.exit(EXIT_BAD_INPUT)

    def list_commands(self, ctx):
        return sorted(self.commands)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="ec2audit")
def main() -> None:
    """Audit what LLM agents send from the edge to cloud models."""


for _info in pkgutil.iter_modules(__path__):
    if not _info.name.startswith("_"):
        _module = importlib.import_module(f"{__name__}.{_info.name}")
        if hasattr(_module, "command"):
            main.add_command(_module.command)
