"""``python -m gradmode_plugin.lint``: the ``gradmode-lint`` command."""

from gradmode_plugin.lint.cli import main

raise SystemExit(main())
