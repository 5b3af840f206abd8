"""The project's tests. The modules beside the test modules (factories, oracles, worlds, scans) hold assertions
too: pytest rewrites them as it does the tests' own, so that a failure inside one shows its values."""

from pathlib import Path

import pytest

HERE = Path(__file__).parent
pytest.register_assert_rewrite(
    *sorted(
        ".".join(path.relative_to(HERE.parent).with_suffix("").parts)
        for path in HERE.rglob("*.py")
        if not path.name.startswith("test_") and path.name not in ("__init__.py", "conftest.py")
    )
)
