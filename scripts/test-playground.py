"""Drive the built playground in headless Chromium (Playwright) and check its answers.

    python test-playground.py PLAYGROUND_DIR CHROMIUM [SCREENSHOT.png]

Serves PLAYGROUND_DIR (scripts/build-playground.sh's output) on a free port of
127.0.0.1, then: types an expression and presses Enter, and checks the result, the
table and that an SVG picture was drawn; loads a link #e=<expression>; shows an error;
follows a worked example; checks the page raised no JavaScript error, and that
opened as a file it says to serve it. Exit status 0
when every check passes, 1 otherwise. Run by scripts/test-playground.sh.
"""

import functools
import http.server
import os
import sys
import threading
import urllib.parse

from playwright.sync_api import sync_playwright

# kute's answers (the tour, docs/tour.md, checks the same ones against the `kute` command).
DIVIDE = "logical_divide(24:2, 4:2)"
DIVIDE_RESULT = "(4,(2,3)):(4,(2,16))"
BLOCKED = "blocked_product((_2,_2):(_1,_2),(_3,_4):(_4,_1))"
BLOCKED_RESULT = "((_2,_3),(_2,_4)):((_1,_16),(_2,_4))"
BLOCKED_ROW = " 5  | 33 | 35 | 37 | 39 | 41 | 43 | 45 | 47 |"
SWIZZLE_RESULT = "Sw<3,0,3> o _0 o (_8,_8):(_8,_1)"

failures = []


def check(ok, what):
    print(("ok:   " if ok else "FAIL: ") + what, flush=True)
    if not ok:
        failures.append(what)


class Quiet(http.server.SimpleHTTPRequestHandler):
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".js": "text/javascript",
    }

    def log_message(self, *args):
        pass


def picture(page):
    """(rects, texts, width, height) of the SVG drawn in #picture, or None."""
    return page.evaluate(
        """() => {
            const svg = document.querySelector('#picture svg');
            if (!svg || document.querySelector('#picture-section').hidden) return null;
            const box = svg.getBoundingClientRect();
            return [svg.querySelectorAll('rect').length, svg.querySelectorAll('text').length,
                    box.width, box.height];
        }"""
    )


def main():
    root, chromium = sys.argv[1], sys.argv[2]
    shot = sys.argv[3] if len(sys.argv) > 3 else None
    handler = functools.partial(Quiet, directory=root)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    print(f"serving {root} at {base}", flush=True)

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1200, "height": 1100})
        errors = []
        page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
        page.on("console", lambda m: m.type == "error" and errors.append(f"console error: {m.text}"))
        page.set_default_timeout(20_000)

        # 1. type an expression and press Enter
        page.goto(base)
        page.wait_for_selector("body[data-ready=true]")
        page.click("#expr")
        page.keyboard.type(DIVIDE)
        page.keyboard.press("Enter")
        page.wait_for_selector("#result:not([hidden])")
        result = page.inner_text("#result")
        check(result == DIVIDE_RESULT, f"typed {DIVIDE!r}: result {result!r} == {DIVIDE_RESULT!r}")
        check(page.inner_text("#kind") == "(a layout)", "its kind is shown")
        table = page.inner_text("#table")
        check(
            table.splitlines()[0] == DIVIDE_RESULT and "+----+" in table and "| 16 |" in table,
            "the print_layout table is shown",
        )
        pic = picture(page)
        check(
            pic is not None and pic[0] >= 24 and pic[1] >= 24 and pic[2] > 100 and pic[3] > 50,
            f"an SVG with a rect and a text per cell is drawn (rects, texts, width, height: {pic})",
        )
        check(page.is_hidden("#error"), "no error is shown")
        expected_hash = "#e=" + urllib.parse.quote(DIVIDE, safe="")
        hash_now = page.evaluate("location.hash")
        check(
            urllib.parse.unquote(hash_now) == urllib.parse.unquote(expected_hash),
            f"the address holds the expression ({hash_now})",
        )
        if shot:
            page.screenshot(path=shot, full_page=True)
            print(f"screenshot: {shot}")

        # 2. a shared link evaluates on load
        link = base + "#e=" + urllib.parse.quote(BLOCKED, safe="")
        page2 = browser.new_page()
        page2.on("pageerror", lambda e: errors.append(f"page error: {e}"))
        page2.goto(link)
        page2.wait_for_selector("body[data-ready=true]")
        result = page2.inner_text("#result")
        check(result == BLOCKED_RESULT, f"the link #e=... shows {result!r} == {BLOCKED_RESULT!r}")
        check(page2.input_value("#expr") == BLOCKED, "and puts the expression in the box")
        check(BLOCKED_ROW in page2.inner_text("#table").splitlines(), "and its table")
        pic = picture(page2)
        check(pic is not None and pic[0] >= 48, f"and its picture ({pic})")
        page2.close()

        # 3. errors are shown, not thrown
        page.fill("#expr", "")
        page.keyboard.type("composition((6,4):(1,7), 4:4)")
        page.click("#go")
        page.wait_for_selector("#error:not([hidden])")
        err = page.inner_text("#error")
        check(err.startswith("error: composition: "), f"a failing composition shows kute's error: {err!r}")
        check(page.is_hidden("#result") and picture(page) is None, "and no result or picture")
        page.fill("#expr", "size(foo)")
        page.keyboard.press("Enter")
        page.wait_for_function("document.querySelector('#error').innerText.includes('^^^')")
        err = page.inner_text("#error")
        check("size(foo)\n     ^^^" in err, f"an unknown name is pointed at: {err!r}")
        deep = "(" * 400 + "1" + ")" * 400
        page.fill("#expr", deep)
        page.keyboard.press("Enter")
        page.wait_for_function("!document.querySelector('#error').innerText.includes('size(foo)')")
        err = page.inner_text("#error")
        check(err.startswith("error: ") and "internal error" not in err, f"deep nesting is an error: {err[:90]!r}")

        # 4. a worked example is one click away
        page.click("a.example:text('a swizzle')")
        page.wait_for_selector("#result:not([hidden])")
        page.wait_for_function(f"document.querySelector('#result').innerText === {SWIZZLE_RESULT!r}")
        check(page.inner_text("#result") == SWIZZLE_RESULT, "the swizzle example evaluates")
        check(picture(page) is not None, "and is drawn")
        check(page.evaluate("location.hash").startswith("#e="), "and its address can be shared")
        page.click("a.example:text('an MMA')")
        page.wait_for_function("document.querySelector('#result').innerText.startsWith('TiledMMA')")
        pic = picture(page)
        check(pic is not None and pic[0] > 100, f"the MMA example draws its TV picture ({pic})")

        check(not errors, f"no JavaScript errors ({errors})")

        # 5. opened from a file, the page says to serve it (modules load over http only)
        page3 = browser.new_page()
        page3.goto("file://" + os.path.abspath(os.path.join(root, "index.html")))
        status = page3.inner_text("#status")
        check("http" in status and "serve" in status, f"opened as a file, the page says to serve it: {status[:60]!r}")
        page3.close()
        browser.close()
    server.shutdown()
    if failures:
        print(f"{len(failures)} check(s) failed", file=sys.stderr)
        return 1
    print("all playground checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
