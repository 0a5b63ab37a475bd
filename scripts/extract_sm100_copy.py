#!/usr/bin/env python3
"""Transcribes the `Copy_Traits` of CuTe's SM100 copy ops into kute's table.

Usage: extract_sm100_copy.py CUTE_INCLUDE_DIR > crates/kute/src/atom/traits/sm100_copy.tsv

Reads `cute/atom/copy_traits_sm100.hpp` (every specialization is written out
there: the 256-bit loads and stores, the SM100 ldmatrix / stmatrix, the TMEM
loads and stores, UTCCP) and writes one line per op: name, ThrID, ValID (`-`
where the op has none), SrcLayout, DstLayout, RefLayout, each in kute's
notation with every integer static. A layout written with a shape alone gets
CuTe's compact column-major strides (`_0` on a mode of size 1).
"""

import re
import sys

CONSTANTS = {"TMEM::DP_b": 1 << 21}


def split_args(s):
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch in "<(":
            depth += 1
        elif ch in ">)":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


class Ctx:
    def __init__(self, aliases, traits):
        self.aliases = aliases  # local `using X = ...;` of the struct
        self.traits = traits  # the ops read so far: name -> {member: layout}


def number(expr, ctx):
    """An integer constant expression: `_32`, `Int<_DP{}*32>`, `C<int32_t(1) << 22>`."""
    e = expr.strip()
    e = re.sub(r"^(cute::)?(C|Int)<(.*)>$", r"\3", e)
    for name, v in CONSTANTS.items():
        e = e.replace(name, str(v))
    for name, text in ctx.aliases.items():
        pat = r"(?<![\w])" + re.escape(name) + r"(\{\})?(?![\w])"
        if re.search(pat, e):
            e = re.sub(pat, "(" + str(number(text, ctx)) + ")", e)
    e = re.sub(r"\b_(\d+)\b", r"\1", e)
    e = re.sub(r"\bu?int\d+_t\((\d+)\)", r"\1", e)
    if not re.fullmatch(r"[\d\s()*+<-]+", e):
        raise ValueError(f"not a constant: {expr!r} -> {e!r}")
    return int(eval(e))


def tree(expr, ctx):
    """A Shape<...>/Stride<...> or an integer: nested lists of ints."""
    e = expr.strip()
    m = re.fullmatch(r"(?:cute::)?(Shape|Stride)\s*<(.*)>", e, re.S)
    if m:
        return [tree(a, ctx) for a in split_args(m.group(2))]
    if e in ctx.aliases:
        return tree(ctx.aliases[e], ctx)
    return number(e, ctx)


def compact(shape, acc):
    """CuTe's compact column-major strides: `_0` on a mode of size 1."""
    if isinstance(shape, list):
        out = []
        for s in shape:
            st, acc = compact(s, acc)
            out.append(st)
        return out, acc
    return (0 if shape == 1 else acc), acc * shape


def fmt(t):
    if isinstance(t, list):
        return "(" + ",".join(fmt(x) for x in t) + ")"
    return f"_{t}"


def layout(expr, ctx):
    e = " ".join(expr.split())
    m = re.fullmatch(r"typename Copy_Traits<(\w+)>::(\w+)", e)
    if m:
        return ctx.traits[m.group(1)][m.group(2)]
    if e in ("SrcLayout", "DstLayout"):
        return None  # resolved by the caller
    m = re.fullmatch(r"(?:cute::)?Layout\s*<(.*)>", e)
    if not m:
        raise ValueError(f"not a layout: {e!r}")
    args = split_args(m.group(1))
    shape = tree(args[0], ctx)
    stride = tree(args[1], ctx) if len(args) > 1 else compact(shape, 1)[0]
    return f"{fmt(shape)}:{fmt(stride)}"


def main():
    path = sys.argv[1].rstrip("/") + "/cute/atom/copy_traits_sm100.hpp"
    text = open(path).read()
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    traits = {}
    rows = []
    for m in re.finditer(r"struct Copy_Traits<(\w+)>\s*\{(.*?)\n\};", text, re.S):
        name, body = m.group(1), m.group(2)
        usings = re.findall(r"using\s+(\w+)\s*=\s*(.*?);", body, re.S)
        aliases = {k: v for k, v in usings if k not in ("ThrID", "ValID", "SrcLayout", "DstLayout", "RefLayout")}
        ctx = Ctx(aliases, traits)
        members = {}
        for k, v in usings:
            if k in aliases:
                continue
            v = " ".join(v.split())
            if v in members:
                members[k] = members[v]
            else:
                members[k] = layout(v, ctx)
        traits[name] = members
        rows.append(
            "\t".join(
                [name, members["ThrID"], members.get("ValID", "-"), members["SrcLayout"], members["DstLayout"], members["RefLayout"]]
            )
        )
    print("# op\tThrID\tValID\tSrcLayout\tDstLayout\tRefLayout (bits; from cute/atom/copy_traits_sm100.hpp)")
    for r in rows:
        print(r)


if __name__ == "__main__":
    main()
