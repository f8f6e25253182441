"""The `ec2audit` command: a click group whose commands are thin calls into the library.

Every public module in this package defines `command` (a click command or group) named as the module,
`_` read as `-` (`gateway_check.py` is `gateway-check`), so a new command is one new file. A command's
module is imported only when that command runs or help lists it: `ec2audit audit` loads no other command's
libraries. Heavy libraries are imported inside commands too, keeping `--help` fast.
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
        return sorted({*self.commands, *_COMMAND_MODULES})

    def get_command(self, ctx, cmd_name):
        if cmd_name not in self.commands and cmd_name in _COMMAND_MODULES:
            command = importlib.import_module(f"{__name__}.{_COMMAND_MODULES[cmd_name]}").command
            if command.name != cmd_name:
                raise RuntimeError(f"{command.name!r} is defined in {_COMMAND_MODULES[cmd_name]}.py: "
                                   f"a command's module must be named as the command")
            self.add_command(command)
        return super().get_command(ctx, cmd_name)


#: command name → its module in this package (imported when the command is asked for)
_COMMAND_MODULES = {info.name.replace("_", "-"): info.name for info in pkgutil.iter_modules(__path__)
                    if not info.name.startswith("_")}


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="ec2audit")
def main() -> None:
    """Audit what LLM agents send from the edge to cloud models."""
