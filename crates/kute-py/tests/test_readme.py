"""The Python examples of the repository's documents (the ```pycon blocks of README.md and of
every docs/**/*.md) are real: each runs under doctest and must print exactly the text shown."""

import doctest
import glob
import os
import re

ROOT = os.path.join(os.path.dirname(__file__), "..", "..", "..")

# The fewest doctest examples each document must have, so that a lost example fails
# (more are fine; raise a floor when adding examples).
MIN_EXAMPLES = {"docs/python.md": 66}


def documents():
    docs = sorted(glob.glob(os.path.join(ROOT, "docs", "**", "*.md"), recursive=True))
    for path in [os.path.join(ROOT, "README.md")] + docs:
        with open(path, encoding="utf-8") as f:
            yield os.path.relpath(path, ROOT).replace(os.sep, "/"), f.read()


def test_document_python_examples():
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    counts = {}
    for name, text in documents():
        blocks = re.findall(r"^```pycon\n(.*?)^```", text, flags=re.S | re.M)
        globs = {}
        for i, block in enumerate(blocks):
            test = parser.get_doctest(block, globs, "%s pycon block %d" % (name, i + 1), name, 0)
            counts[name] = counts.get(name, 0) + len(test.examples)
            runner.run(test)
    for name, least in MIN_EXAMPLES.items():
        assert counts.get(name, 0) >= least, "%s: %d Python examples, at least %d expected" % (
            name,
            counts.get(name, 0),
            least,
        )
    result = runner.summarize(verbose=False)
    # 28 when the examples were all in README.md
    assert result.attempted >= 28 and result.failed == 0, "%d of %d document examples fail" % (
        result.failed,
        result.attempted,
    )
