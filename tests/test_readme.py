"""The README's examples run as doctests, so the front page never lies."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_readme_examples_run() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL)
    assert blocks, "the README shows no Python example"
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for number, block in enumerate(blocks):
        test = parser.get_doctest(block, {}, f"README block {number}", "README.md", 0)
        runner.run(test)
    assert runner.failures == 0, f"{runner.failures} README example(s) failed, see output above"


def test_quick_start_is_two_commands() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    quick = text.split("## Quick start", 1)[1].split("```bash\n", 1)[1].split("```", 1)[0]
    commands = [line for line in quick.splitlines() if line.strip()]
    assert commands == [
        "pip install . && python -m ordonnance demo",
        'pip install -e ".[test]" && python -m pytest -n auto',
    ]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert commands[1] in ci
