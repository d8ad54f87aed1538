"""What the tests' apps share, so that a thousand fresh apps cost what a few do.

Each web test builds its own app on its own database (``create_app``), as a phone's server would
start. Three things in that are the same for every app the tests build, and were done again each
time: migrating an empty database (with a disk flush per transaction), compiling the URL rules'
builders (werkzeug compiles Python for each of ~380 rules), and compiling the templates. Here they
are done once per test process and shared:

- a new database file is a copy of one migrated once (``template``): what ``migrate`` makes of an
  empty file, byte for byte the same schema;
- a URL rule's builder is compiled once per rule (the builder reads its converters through the
  rule it is bound to, so it can serve every app's copy of the rule);
- templates are compiled once into a Jinja bytecode cache shared by every app, keyed also by what
  compiling them depends on in the environment.

Nothing here changes what an app does: a test that migrates a database itself, or builds one
from an older schema, still runs the real migrations (the copy is taken only for a file that does
not exist yet, when the app starts).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from jinja2.bccache import Bucket, BytecodeCache
from werkzeug.routing.rules import Rule

from scorepad import db


def install(patch: pytest.MonkeyPatch, folder: Path) -> None:
    """Share migrated databases, URL builders and compiled templates until ``patch`` is undone."""
    template = str(folder / "migrated.db")
    db.migrate(template)  # closed: its write-ahead log is checkpointed into the one file
    init_app = db.init_app

    def init_from_template(app):
        path = app.config["DATABASE"]
        if path != ":memory:" and not path.startswith("file:") and not os.path.exists(path):
            if os.path.isdir(os.path.dirname(path) or "."):
                shutil.copyfile(template, path)
        init_app(app)  # the real start-up, on a database that is already up to date

    patch.setattr(db, "init_app", init_from_template)

    compile_builder = Rule._compile_builder
    builders: dict = {}

    def shared_builder(self, append_unknown=True):
        key = (
            self.rule,
            self.host,
            self.subdomain,
            tuple(self._trace),
            tuple(sorted((name, repr(value)) for name, value in (self.defaults or {}).items())),
            tuple(sorted((name, type(converter)) for name, converter in self._converters.items())),
            append_unknown,
        )
        if key not in builders:
            builders[key] = compile_builder(self, append_unknown)
        return builders[key]

    patch.setattr(Rule, "_compile_builder", shared_builder)

    from flask import Flask

    create_environment = Flask.create_jinja_environment
    cache = SharedBytecode()

    def with_shared_bytecode(self):
        environment = create_environment(self)
        environment.bytecode_cache = cache
        return environment

    patch.setattr(Flask, "create_jinja_environment", with_shared_bytecode)


def _compiled_with(environment) -> tuple:
    """What a template's compiled code depends on in its environment (besides its source)."""

    def same(value):
        return getattr(value, "__func__", value)  # a bound method: its function, whichever app

    return (
        tuple(sorted(environment.extensions)),
        environment.block_start_string,
        environment.variable_start_string,
        environment.comment_start_string,
        environment.line_statement_prefix,
        environment.line_comment_prefix,
        environment.trim_blocks,
        environment.lstrip_blocks,
        environment.keep_trailing_newline,
        environment.optimized,
        environment.is_async,
        same(environment.autoescape),
        same(environment.finalize),
        getattr(environment, "newstyle_gettext", None),
        environment.policies.get("ext.i18n.trimmed"),  # the one policy read while compiling
        tuple(sorted(environment.filters)),
        tuple(sorted(environment.tests)),
    )


class SharedBytecode(BytecodeCache):
    """Compiled templates in memory, for every app of this process with the same environment."""

    def __init__(self) -> None:
        self.codes: dict[str, bytes] = {}

    def get_bucket(self, environment, name, filename, source):
        key = repr((_compiled_with(environment), self.get_cache_key(name, filename)))
        bucket = Bucket(environment, key, self.get_source_checksum(source))
        self.load_bytecode(bucket)
        return bucket

    def load_bytecode(self, bucket: Bucket) -> None:
        code = self.codes.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.codes[bucket.key] = bucket.bytecode_to_string()
