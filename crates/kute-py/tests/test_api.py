"""The Python API: pycute-style usage, evaluation, slicing, printing, errors, Jupyter display.

The expected layouts are CuTe's answers (the worked examples of CuTe's documentation and
the oracle's vectors), written out here, not what kute prints today.
"""

import pickle

import pytest

import kute
import kute.pycute
from kute import IntTuple, KuteError, Layout


# --- pycute-style: the five operations of pycute on layouts built from Python tuples ---------


def test_layout_from_python_tuples():
    a = Layout((4, 8), (8, 1))
    assert str(a) == "(4,8):(8,1)"
    assert repr(a) == "Layout('(4,8):(8,1)')"
    assert a.shape == (4, 8) and a.stride == (8, 1)
    assert a.size() == 32 and a.cosize() == 32
    assert len(a) == 2 and a.rank() == 2 and a.depth() == 1
    # no stride: CuTe's make_layout (column-major, the first stride static)
    assert str(Layout((2, (2, 2)))) == "(2,(2,2)):(_1,(2,4))"
    assert str(Layout(8)) == "8:_1"
    assert str(Layout(((2, 2), 2), ((4, 1), 2))) == "((2,2),2):((4,1),2)"


@pytest.mark.parametrize("cls, keyword", [(Layout, "stride"), (kute.pycute.Layout, "_stride")])
def test_every_way_of_calling_a_layout_class_answers_alike(cls, keyword):
    # A call of plain ints and tuples takes a fast path (CPython's vectorcall, in the
    # default build); keywords, subclasses and __new__ take the class's ordinary path.
    # Both give the same layouts and errors, and keep no references.
    import functools
    import gc
    import sys

    class Sub(cls):
        pass

    s, d = (4, (2, 3)), (2, (1, 8))
    made = [
        cls(s, d),
        cls(s, **{keyword: d}),
        cls(*[s, d]),
        functools.partial(cls, s)(d),
        cls.__new__(cls, s, d),
        Sub(s, d),
    ]
    for x in made:
        assert x == made[0] and hash(x) == hash(made[0])
        assert x.shape == s and x.stride == d
    assert type(made[-1]) is Sub and type(made[0]) is cls
    assert str(Layout(s, d)) == "(4,(2,3)):(2,(1,8))"
    assert str(cls(s)) == str(cls(s, **{keyword: None})) == str(Sub(s))

    def error(f):
        with pytest.raises(Exception) as e:
            f()
        return type(e.value), str(e.value)

    # the same error on both paths, each of the kind Python users expect
    for args in [(s, (1, 2)), (s, (1, (2, 3, 4))), ((4, -2), (1, 4)), (s, 1.5), ("(2", None)]:
        fast = error(lambda: cls(*args))
        assert fast == error(lambda: cls(args[0], **{keyword: args[1]})), args
        assert fast[0] in (KuteError, TypeError), args
    assert error(lambda: cls(2**70, 1))[0] is OverflowError
    for args, kwargs in [((), {}), ((s, d, d), {}), ((s, d), {"other": 1}), ((s, d), {keyword: d})]:
        assert error(lambda: cls(*args, **kwargs))[0] is TypeError, (args, kwargs)

    def calls(n):
        for _ in range(n):
            cls(s, d), cls(s, **{keyword: d}), Sub(s, d)
            error(lambda: cls(s, (1, 2)))
            error(lambda: cls(s, **{keyword: (1, 2)}))
        gc.collect()
        return [sys.getrefcount(x) for x in (s, d, cls, Sub)]

    assert calls(1) == calls(200)


def test_coalesce():
    assert str(kute.coalesce(Layout((2, (1, 6)), (1, (6, 2))))) == "12:1"
    assert str(kute.coalesce(Layout("(_2,(_1,_6)):(_1,(_6,_2))"))) == "_12:_1"
    assert str(kute.coalesce(Layout((2, 2), (2, 1)))) == "(2,2):(2,1)"
    # by-mode coalesce
    assert str(kute.coalesce(Layout("(_2,(_1,_6)):(_1,(_6,_2))"), (1, 1))) == "(_2,_6):(_1,_2)"


def test_composition():
    a = Layout((6, 2), (8, 2))
    b = Layout((4, 3), (3, 1))
    assert str(kute.composition(a, b)) == "((2,2),3):((24,2),8)"
    assert str(kute.composition(Layout("(_10,_2):(_16,_4)"), Layout("(_5,_4):(_1,_5)"))) == "(_5,(_2,_2)):(_16,(_80,_4))"
    # a tuple of layouts is a by-mode tiler (as in pycute)
    l20 = Layout("(_12,(_4,_8)):(_59,(_13,_1))")
    assert str(kute.composition(l20, (Layout("_3:_4"), Layout("_8:_2")))) == "(_3,(_2,_4)):(_236,(_26,_1))"


def test_complement():
    assert str(kute.complement(Layout(4, 1), 24)) == "6:4"
    assert str(kute.complement(Layout(6, 4), 24)) == "4:_1"
    assert str(kute.complement(Layout(4, 2), 24)) == "(2,3):(_1,8)"
    assert str(kute.complement(Layout("(_2,_4):(_1,_6)"), "_24")) == "_3:_2"


def test_logical_divide():
    assert str(kute.logical_divide(Layout(24, 2), Layout(4, 2))) == "(4,(2,3)):(4,(2,16))"
    a = Layout("(_9,(_4,_8)):(_59,(_13,_1))")
    tiler = (Layout("_3:_3"), Layout("(_2,_4):(_1,_8)"))
    assert str(kute.logical_divide(a, tiler)) == "((_3,_3),((_2,_4),(_2,_2))):((_177,_59),((_13,_2),(_26,_1)))"


def test_logical_product():
    assert str(kute.logical_product(Layout((2, 2), (4, 1)), Layout(6, 1))) == "((2,2),(2,3)):((4,1),(2,8))"
    assert str(kute.logical_product(Layout((2, 2), (4, 1)), Layout((4, 2), (1, 4)))) == (
        "((2,2),((2,2),2)):((4,1),((2,8),16))"
    )
    assert str(kute.logical_product(Layout("(_2,_2):(_1,_2)"), Layout("(_3,_4):(_4,_1)"))) == (
        "((_2,_2),(_3,_4)):((_1,_2),(_16,_4))"
    )


def test_other_operations_by_cute_name():
    a = Layout("(_4,_2):(_1,_16)")
    assert str(kute.right_inverse(a)) == "_4:_1"
    assert str(kute.left_inverse(Layout("(_4,_2):(_2,_1)"))) == "(_2,_4):(_4,_1)"
    b = Layout("(_8,_8):(_8,_1)")
    assert str(kute.zipped_divide(b, "<_2:_1,_4:_1>")) == "((_2,_4),(_4,_2)):((_8,_1),(_16,_4))"
    assert str(kute.zipped_divide(b, ("_2", "_4"))) == "((_2,_4),(_4,_2)):((_8,_1),(_16,_4))"
    assert str(kute.tiled_divide(b, "<_2:_1,_4:_1>")) == "((_2,_4),_4,_2):((_8,_1),_16,_4)"
    assert str(kute.flat_divide(b, "<_2:_1,_4:_1>")) == "(_2,_4,_4,_2):(_8,_1,_16,_4)"
    # Python ints are run-time integers: the same values, without the static marks
    assert str(kute.zipped_divide(b, (2, 4))) == "((2,4),(4,2)):((_8,_1),(16,4))"
    c = Layout("((_3,_2),(_4,_2)):((_16,_1),(_4,_2))")
    assert str(kute.zipped_product(Layout("(_2,_2):(_1,_2)"), Layout("(_3,_4):(_4,_1)"))) == (
        "((_2,_2),(_3,_4)):((_1,_2),(_16,_4))"
    )
    assert str(kute.tiled_product(Layout("(_2,_2):(_1,_2)"), Layout("(_3,_4):(_4,_1)"))) == (
        "((_2,_2),_3,_4):((_1,_2),_16,_4)"
    )
    assert str(kute.flat_product(Layout("(_2,_2):(_1,_2)"), Layout("(_3,_4):(_4,_1)"))) == "(_2,_2,_3,_4):(_1,_2,_16,_4)"
    assert str(kute.zipped_divide(c, kute.Tiler(Layout("_2:_3"), Layout("_2:_4")))) == "((_2,_2),(_3,_4)):((_1,_2),(_16,_4))"
    blk = Layout("(_2,_5):(_5,_1)")
    tile = Layout("(_3,_4):(_1,_3)")
    assert str(kute.blocked_product(blk, tile)) == "((_2,_3),(_5,_4)):((_5,_10),(_1,_30))"
    assert str(kute.raked_product(blk, tile)) == "((_3,_2),(_4,_5)):((_10,_5),(_30,_1))"
    assert str(kute.make_layout(Layout("_3:_1"), Layout("_4:_3"))) == "(_3,_4):(_1,_3)"
    assert str(kute.make_identity_layout((4, 8))) == "(4,8):(_1@0,_1@1)"
    assert kute.size(Layout("(_4,_8):(_1,_4)")) == 32
    assert kute.size(Layout("(_4,_8):(_1,_4)"), targs=1) == 8
    assert kute.rank(Layout("(_4,_8):(_1,_4)")) == 2


def test_make_layout_of_layouts_is_the_languages():
    # the native path (layouts side by side in the answer's storage) against the language's
    a, b, c = Layout("(_2,(_3,4)):(_1,(_2,6))"), Layout("_4:_3"), Layout("(8,2):(2,1)")
    n = Layout((kute.sym("M", div=4), 2), (1, kute.sym("M", div=4)))
    for args in [(a,), (a, b), (b, a, c), (c, c, c, c), (n, a)]:
        mine, lang = kute.make_layout(*args), kute.call("make_layout", *args)
        assert isinstance(mine, Layout) and (str(mine), mine == lang) == (str(lang), True), args
    # CuTe: make_layout(L0, L1) takes each layout as a mode
    assert str(kute.make_layout(a, b)) == "((_2,(_3,4)),_4):((_1,(_2,6)),_3)"
    assert str(kute.make_layout(b)) == "(_4):(_3)"
    with pytest.raises(TypeError):
        kute.make_layout()


def test_every_function_of_the_language_is_a_module_function():
    for name, aliases, signature, summary in kute.functions():
        for n in (name, *aliases):
            if n.isidentifier() and n not in ("and", "or", "not"):
                f = getattr(kute, n)
                assert callable(f), n
    assert "logical_divide" in kute.__all__ and "eval" not in kute.__all__ and "filter" not in kute.__all__
    assert "logical_divide(" in kute.logical_divide.__doc__


# --- evaluation and slicing -------------------------------------------------------------------


def test_evaluation():
    a = Layout((2, (2, 2)), (4, (2, 1)))
    assert [a(i) for i in range(8)] == [0, 4, 2, 6, 1, 5, 3, 7]
    assert a(1, 3) == 7
    assert Layout((3, (2, 3)), (3, (12, 1)))(2, (1, 2)) == 20
    assert isinstance(a(5), int)


def test_evaluation_at_a_coordinate_is_at_its_index():
    # a coordinate of the layout's own shape (read in place) against its 1-D index
    # (CuTe's colexicographic order, evaluated leaf by leaf): two paths, one answer
    from kute import pycute as kp

    for text in ["(4,(2,3)):(2,(1,8))", "((2,2),(3,5)):((1,30),(2,6))", "(_4,_2):(_1,_4)", "7:3", "(3,1,2):(0,5,-4)"]:
        a = Layout(text)
        for i in range(kute.size(a)):
            c = kp.idx2crd(i, a.shape)
            assert a(c) == a(i), (text, c)
            if isinstance(c, tuple):
                assert a(*c) == a(i), (text, c)
    # past an extent, negative or not a coordinate of the shape: the general path's answer or error
    a = Layout((4, (2, 3)), (2, (1, 8)))
    assert a(3, 5) == a(3 + 4 * 5)
    with pytest.raises(IndexError):
        a((-1, (0, 0)))


def test_slicing():
    a = Layout((4, (2, 4)), (2, (1, 8)))
    assert a(2, (0, 1)) == 12
    assert str(a(kute._, (1, kute._))) == "(4,4):(2,8)"
    assert str(a(None, (1, None))) == "(4,4):(2,8)"
    assert str(a(0, (None, None))) == "(2,4):(1,8)"
    b = Layout("(_4,_8):(_1,_4)")
    assert str(b(None, 2)) == "(_4):(_1)"
    assert str(kute.slice((0, (None, None)), a)) == "(2,4):(1,8)"
    layout, offset = kute.slice_and_offset((1, (None, 1)), a)
    assert str(layout) == "(2):(1)" and offset == 10


def test_modes():
    a = Layout("(_4,(_3,_6)):(_1,(_4,_12))")
    assert str(a[1]) == "(_3,_6):(_4,_12)"
    assert str(a[-1][0]) == "_3:_4"
    assert [str(m) for m in a] == ["_4:_1", "(_3,_6):(_4,_12)"]
    with pytest.raises(IndexError):
        a[2]
    assert str(kute.layout(a, targs=(1, 0))) == "_3:_4"


def test_integers_are_python_ints():
    a = Layout("(_4,(_2,_8)):(_1,(_4,_8))")
    # what pycute gives as ints and tuples, kute gives as ints and tuples
    assert kute.size(a) + 1 == 65 and type(kute.size(a)) is int
    assert a.shape == (4, (2, 8)) and type(a.shape) is tuple and a.shape[0] * 2 == 8
    assert a.stride[1] == (4, 8) and type(a.stride[1][0]) is int
    assert kute.shape(a) == (4, (2, 8)) and kute.rank(a) + kute.depth(a) == 4
    assert kute.cosize(a) - 1 == 63 and kute.size(a, targs=1) * 1 == 16
    assert kute.idx2crd(16, (3, (2, 3))) == (1, (1, 2))
    assert kute.crd2idx(16, (3, (2, 3)), (3, (12, 1))) == 17
    layout, offset = kute.slice_and_offset((1, (None, 1)), Layout((4, (2, 4)), (2, (1, 8))))
    assert str(layout) == "(2):(1)" and offset == 10 and type(offset) is int
    # static-ness stays readable: the printed layout, is_static, and kute.eval's IntTuple
    assert str(a) == "(_4,(_2,_8)):(_1,(_4,_8))" and a.is_static()
    t = kute.eval("size<1>(L)", L=a)
    assert isinstance(t, IntTuple) and str(t) == "_16" and t.is_static() and t == 16
    assert not kute.eval("size(L)", L=Layout((4, 8))).is_static()


def test_version_swizzle_and_arity():
    assert isinstance(kute.__version__, str) and kute.__version__.count(".") == 2
    sw = kute.Swizzle(3, 3, 3)
    assert str(sw) == "Sw<3,3,3>" and repr(sw) == "Swizzle(3,3,3)"
    assert (sw.bits, sw.base, sw.shift) == (3, 3, 3)
    # CuTe: x ^ ((x & 0b111000000) >> 3)
    assert [sw(x) for x in (0, 64, 65, 200, 511)] == [x ^ ((x & 0b111000000) >> 3) for x in (0, 64, 65, 200, 511)]
    assert sw.size() == 512 and sw == kute.eval("Sw<3,3,3>") and pickle.loads(pickle.dumps(sw)) == sw
    assert str(kute.composition(sw, Layout("(_8,_64):(_64,_1)"))) == "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)"
    with pytest.raises(KuteError, match="at least B"):
        kute.Swizzle(3, 3, 2)
    # a wrong number of arguments is a TypeError, as for Python's own functions
    with pytest.raises(TypeError, match="size takes 1 argument"):
        kute.size()
    with pytest.raises(TypeError):
        kute.composition(Layout(4))
    with pytest.raises(TypeError):
        kute.Swizzle(3, 3)
    with pytest.raises(TypeError, match="template argument"):
        kute.composition(Layout(4), Layout(4), targs=1)
    with pytest.raises(KuteError, match="unknown function"):
        kute.call("nosuch", 1)


def test_template_arguments_take_type_names():
    # CuTe's answers (crates/kute/tests/data/recast_layout.tsv)
    a = Layout("(_32,_8):(_1,_32)")
    assert str(kute.recast_layout(a, targs=("uint8_t", "uint128_t"))) == "(_2,_8):(_1,_2)"
    assert str(kute.recast_layout(Layout("(_4,_8):(_0,_1)"), targs=("float", "half_t"))) == "(_4,_16):(_0,_1)"
    h = Layout("(_64,_8):(_1,_64)")
    assert kute.recast_layout(h, targs=("half_t", "uint128_t")) == kute.eval("recast_layout<half_t,uint128_t>(L)", L=h)
    # widths in bits are the same
    assert kute.recast_layout(a, targs=(8, 128)) == kute.recast_layout(a, targs=("uint8_t", "uint128_t"))
    with pytest.raises(KuteError, match="unknown element type"):
        kute.recast_layout(a, targs=("half_t", "nosuch_t"))
    with pytest.raises(TypeError, match="integers as template arguments"):
        kute.size(a, targs="half_t")


def test_eval_kinds():
    assert isinstance(kute.eval("logical_divide(24:2, 4:2)"), Layout)
    t = kute.eval("idx2crd(16,(_3,(_2,_3)))")
    assert isinstance(t, IntTuple) and str(t) == "(1,(1,2))" and t == (1, (1, 2))
    assert isinstance(kute.eval("<4:1,_>"), kute.Tiler)
    assert kute.eval("congruent((1,2),(3,4))") is True
    sw = kute.eval("Sw<3,4,3>")
    assert isinstance(sw, kute.Swizzle) and str(sw) == "Sw<3,4,3>"
    assert sw(200) == 216
    c = kute.eval("composition(Sw<3,4,3>{}, (_8,_64):(_64,_1))")
    assert str(c) == "Sw<3,4,3> o _0 o (_8,_64):(_64,_1)"
    assert c._repr_svg_().startswith("<svg")
    # values come back as arguments
    assert str(kute.composition(sw, Layout("(_8,_64):(_64,_1)"))) == str(c)


def test_int_tuple():
    t = IntTuple((2, (3, 4)))
    assert str(t) == "(2,(3,4))" and repr(t) == "IntTuple('(2,(3,4))')"
    assert t.size() == 24 and t.rank() == 2 and t.depth() == 2 and len(t) == 2
    assert t[1] == (3, 4) and t.value == (2, (3, 4))
    assert str(IntTuple("(_2,4)")) == "(_2,4)"
    assert int(IntTuple(7)) == 7 and list(range(IntTuple(3))) == [0, 1, 2]
    assert IntTuple(7)[0] == 7 and len(IntTuple(7)) == 1 and [str(m) for m in IntTuple("(_2,(3,4))")] == ["_2", "(3,4)"]
    with pytest.raises(IndexError):
        IntTuple((1, 2))[2]
    assert IntTuple("_2") != IntTuple("2")
    assert hash(IntTuple(5)) == hash(5) and {IntTuple((1, 2)): 1}[IntTuple((1, 2))] == 1


def test_tiler():
    t = kute.Tiler(Layout("_4:_1"), None)
    assert str(t) == "(_4:_1,_)"  # CuTe prints a tile as a tuple
    assert t == kute.Tiler("<_4:_1,_>")
    assert str(kute.logical_divide(Layout("(_8,_6):(_1,_8)"), t)) == "((_4,_2),_6):((_1,_4),_8)"


# --- printing, equality, hashing, pickling ---------------------------------------------------


def test_str_repr_eq_hash():
    a = Layout("(_4,_8):(_8,_1)")
    assert str(a) == "(_4,_8):(_8,_1)"
    assert repr(a) == "Layout('(_4,_8):(_8,_1)')"
    assert eval(repr(a), {"Layout": Layout}) == a
    assert a == Layout("(_4,_8):(_8,_1)") and hash(a) == hash(Layout("(_4,_8):(_8,_1)"))
    assert a != Layout((4, 8), (8, 1))  # dynamic integers are another layout
    assert a != "(_4,_8):(_8,_1)"
    assert len({a, Layout("(_4,_8):(_8,_1)"), Layout("_4:_1")}) == 2
    assert pickle.loads(pickle.dumps(a)) == a


def test_table_latex_svg():
    a = Layout((2, (2, 2)), (4, (2, 1)))
    assert a.table() == (
        "(2,(2,2)):(4,(2,1))\n"
        "      0   1   2   3 \n"
        "    +---+---+---+---+\n"
        " 0  | 0 | 2 | 1 | 3 |\n"
        "    +---+---+---+---+\n"
        " 1  | 4 | 6 | 5 | 7 |\n"
        "    +---+---+---+---+\n"
    )
    svg = a._repr_svg_()
    assert svg.startswith("<svg") and svg == a.svg()
    latex = a._repr_latex_()
    assert "tikzpicture" in latex and latex == a.latex()


def test_large_pictures_stay_small_in_a_notebook():
    # a 256x256 layout: each distinct row of shades drawn once (a megabyte before)
    assert len(Layout((256, 256), (256, 1))._repr_svg_()) < 40_000
    # Hopper's largest wgmma atom: compact above 4096 cells (CuTe's print_svg is 6 MB)
    m = kute.eval("make_tiled_mma(SM90_64x256x16_F32F16F16_SS{})")
    svg = m._repr_svg_()
    assert len(svg) < 400_000 and "<use " in svg and ">T127</text>" in svg
    # a small MMA is CuTe's print_svg, which starts with its tile
    small = kute.eval("make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN{})")._repr_svg_()
    assert small.startswith("<!--  Tile: (_16,_8,_8)  -->") and "<use " not in small


# --- errors ------------------------------------------------------------------------------------


def test_errors_carry_kutes_message():
    assert issubclass(KuteError, ValueError)
    with pytest.raises(KuteError) as e:
        kute.eval("logical_divide(24:2,")
    assert str(e.value)
    with pytest.raises(TypeError) as e:
        kute.call("size")
    assert str(e.value) == "size takes 1 argument(s), got 0"
    with pytest.raises(KuteError):
        Layout((4, 8), (1,))  # shape and stride not congruent
    with pytest.raises(KuteError):
        Layout((4, 8), (8, 1))(4, 0)  # out of range
    with pytest.raises(KuteError):
        kute.nosuch_function_is_not_there if False else kute.call("nosuch", 1)
    with pytest.raises(TypeError):
        Layout(4.5)
    with pytest.raises(OverflowError):
        Layout(2**80)
    with pytest.raises(KuteError):
        kute.eval("make_layout(" * 5000)  # past kute's limits: an error, never a crash
    deep = 1
    for _ in range(100000):
        deep = (deep,)
    with pytest.raises(KuteError):
        Layout(deep)
    with pytest.raises(KuteError):
        IntTuple(tuple(range(100000)))
    with pytest.raises(KuteError):
        Layout(2**40, 2**40)(2**40 - 1)  # the index overflows 64 bits


# --- symbolic extents ---------------------------------------------------------------------


def test_symbols_build_layouts_and_answer_for_every_value():
    M = kute.sym("M", div=128)
    K = kute.sym("K")
    a = Layout((M, K), (1, M))
    assert str(a) == "(M,K):(1,M)"
    assert str(kute.size(a)) == "M*K"
    d = kute.logical_divide(a, (128, 64))
    assert str(d) == "((128,M/128),(64,ceil_div(K,64))):((1,128),(M,64*M))"
    assert kute.as_dsl(d) == "((128,?),(64,?)):((1,128),(?{div=128},?{div=8192}))"
    # substituting values gives kute's answer on the concrete operands
    c = kute.substitute(d, {"M": 384, "K": 96})
    assert str(c).replace("_", "") == str(kute.logical_divide(Layout((384, 96), (1, 384)), (128, 64))).replace("_", "")
    # expressions with names
    assert str(kute.eval("complement(_4:_1, 8*M)", M=M)) == "2*M:_4"
    # a symbolic shape reads back as kute integers, not Python ints
    s0 = a.shape[0]
    assert str(s0) == "M"
    with pytest.raises(TypeError):
        int(s0)


def test_an_undecided_question_names_the_fact():
    M = kute.sym("M", div=128)
    with pytest.raises(KuteError, match="declare M = \\?\\{div=256\\}"):
        kute.shape_div(M, 256)
    with pytest.raises(KuteError, match="positive multiple of 128"):
        kute.substitute(Layout((M, 4), (1, M)), {"M": 100})


def test_facts_of_unknowns_decide_more():
    M = kute.sym("M")
    LD = kute.sym("LD", ne=(M,))
    assert str(kute.coalesce(Layout((M, 8), (1, LD)))) == "(M,8):(1,LD)"
    with pytest.raises(KuteError, match="declare N = \\?\\{ne=M\\}"):
        kute.coalesce(Layout((M, 8), (1, kute.sym("N"))))
    T = kute.sym("T", div=4, min=5)
    assert str(T) == "T" and kute.as_dsl(T) == "?{div=4}"
    with pytest.raises(KuteError, match="unequal to M"):
        kute.substitute(LD, {"M": 4, "LD": 4})


def test_sympy_expressions_are_integers():
    sympy = pytest.importorskip("sympy")
    M = sympy.Symbol("M", positive=True, integer=True)
    K = sympy.Symbol("K", positive=True, integer=True, even=True)
    a = Layout((M, K), (1, M))
    assert str(a) == "(M,K):(1,M)"
    # one sympy symbol is one unknown in every call; K even is a multiple of 2
    assert str(kute.size(Layout((M, 2 * K + 1), (1, M)))) == "2*M*K+M"
    assert kute.as_dsl(Layout(K // 2 * 2, 1)) == "?{div=2}:1"
    assert str(kute.shape_div(K, 2)) == "K/2"
    assert str(IntTuple(sympy.ceiling(M / 8))) == "ceil_div(M,8)"
    assert str(IntTuple(M**2 - M)) == "M*M-M"
    # and back: kute's answers as sympy expressions, equal to sympy's own arithmetic
    d = kute.logical_divide(a, (128, 64))
    shape = kute.to_sympy(kute.shape(d), symbols=(K,))
    assert shape == ((128, sympy.ceiling(M / 128)), (64, sympy.ceiling(K / 64)))
    assert kute.to_sympy(kute.size(a), symbols=(M, K)) == M * K
    assert kute.to_sympy(kute.cosize(a), symbols=(M, K)) == M * K
    # CuTe's run-time min of an extent and a tile: kute's min(M,2), sympy's Min, both ways
    c = kute.composition(Layout((M, 12), (12, 1)), Layout(2, 1))
    assert str(c) == "(min(M,2),ceil_div(2,M)):(12,1)"
    assert kute.to_sympy(kute.shape(c), symbols=(M,)) == (sympy.Min(M, 2), sympy.ceiling(2 / M))
    assert str(IntTuple(sympy.Min(M, 2))) == "min(M,2)"
    with pytest.raises(KuteError, match="divisible"):
        IntTuple(M / 2)
    with pytest.raises(TypeError):
        IntTuple(sympy.sqrt(M))


def test_a_negative_coordinate_is_an_error():
    a = Layout((2, 3), (1, 2))
    with pytest.raises(IndexError, match="negative"):
        a(-1)
    with pytest.raises(IndexError):
        a(1, -1)
    # past the domain, CuTe extends the last mode (documented): L(size) is defined
    assert a(6) == 6 and a(5) == 5
    with pytest.raises(KuteError, match="negative"):
        Layout((3, -3), (1, 1))
