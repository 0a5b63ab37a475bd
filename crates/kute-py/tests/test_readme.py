"""The Python examples of the repository's README (its ```pycon blocks) are real: each runs
under doctest and must print exactly the text shown."""

import doctest
import os
import re

README = os.path.join(os.path.dirname(__file__), "..", "..", "..", "README.md")


def test_readme_python_examples():
    with open(README, encoding="utf-8") as f:
        blocks = re.findall(r"^```pycon\n(.*?)^```", f.read(), flags=re.S | re.M)
    assert blocks, "the README has no ```pycon example"
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    globs = {}
    for i, block in enumerate(blocks):
        runner.run(parser.get_doctest(block, globs, "README pycon block %d" % (i + 1), README, 0))
    result = runner.summarize(verbose=False)
    assert result.attempted > 0 and result.failed == 0, "%d of %d README examples fail" % (result.failed, result.attempted)
