#!/usr/bin/env python3
"""Rebuild tma_im2col.tsv: CuTe's own answers for its im2col TMA copies
(cute/atom/copy_traits_sm90_im2col.hpp: make_im2col_tma_copy of SM90_TMA_LOAD_IM2COL,
SM90_TMA_LOAD_IM2COL_MULTICAST and SM90_TMA_STORE_IM2COL; copy_traits_sm100_im2col.hpp:
make_im2col_tma_copy_A/B_sm100 and make_im2col_tma_atom_A/B_sm100 of those and of
SM100_TMA_2SM_LOAD_IM2COL[_MULTICAST]).

usage: gen_tma_im2col.py ORACLE_DIR > tma_im2col.tsv

It runs as gen_tma.py does (whose harness, prelude and case driver it reuses): CuTe's
headers compiled with g++ as CUDA 12.8 host code, the driver called directly, and a
stub of the driver's cuTensorMapEncodeIm2col that returns success and records its
arguments. CuTe checks nothing of those arguments itself on this path (the driver
would), so a row is `error` only where CuTe's own static assertions or asserts fire.

Two additions to gen_tma.py's prelude:
  tma_descriptor(c)  prints the arguments of cuTensorMapEncodeIm2col when that is the
                     encoder CuTe called (corners, channels per pixel, pixels per
                     column, traversal strides as elementStrides)
  print(FastDivmod)  CuTe keeps the run-time extents of the im2col tensor's output
                     pixels as cutlass::FastDivmod, which CuTe cannot print (the call
                     is ambiguous); the harness prints the divisor, a run-time integer.

The convolution parameters are written as in CuTe's call, in order:
  make_im2col_tma_copy(op, gtensor, slayout[, cta_tiler[, multicast_size]]
                       [, lower_corner_whd, upper_corner_whd, lower_padding_whd,
                          upper_padding_whd, stride_whd, lower_srt, stride_srt])
each a tuple over the spatial modes (W,H[,D]); gtensor is ((W,H[,D],N),C) as CUTLASS's
convolutions make it for the activation of an fprop or dgrad. The SM100 forms take them
after (op, gtensor, slayout, cluster_tile, mma) and (op, gtensor, slayout, mma_tiler, mma,
cluster_shape).
"""
import os, re, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_tma

IM2COL = r'''
namespace cutlass { void print(FastDivmod const& d) { printf("%d", int(d)); } }
// The last call of the driver's im2col encoder, recorded.
static struct { CUtensorMapDataType fmt; cuuint32_t rank; cuuint64_t dim[5], str[5]; int lo[3], up[3];
                cuuint32_t c, px, es[5]; CUtensorMapInterleave il; CUtensorMapSwizzle sw;
                CUtensorMapL2promotion l2; CUtensorMapFloatOOBfill oob; int calls; } irec;
extern "C" CUresult cuTensorMapEncodeIm2col(CUtensorMap*, CUtensorMapDataType f, cuuint32_t rank, void*,
    const cuuint64_t* dim, const cuuint64_t* str, const int* lo, const int* up, cuuint32_t c, cuuint32_t px,
    const cuuint32_t* es, CUtensorMapInterleave il, CUtensorMapSwizzle sw, CUtensorMapL2promotion l2,
    CUtensorMapFloatOOBfill oob) {
  irec.fmt = f; irec.rank = rank; irec.c = c; irec.px = px; irec.il = il; irec.sw = sw; irec.l2 = l2;
  irec.oob = oob; irec.calls++;
  for (cuuint32_t i = 0; i < rank && i < 5; ++i) {
    irec.dim[i] = dim[i]; irec.es[i] = es[i];
    if (i + 1 < rank) irec.str[i] = str[i];
    if (i + 2 < rank && i < 3) { irec.lo[i] = lo[i]; irec.up[i] = up[i]; }
  }
  return CUDA_SUCCESS;
}
static void ilist(char const* name, int const* v, unsigned n) {
  printf("\n  %s(", name);
  for (unsigned i = 0; i < n; ++i) printf(i ? ",%d" : "%d", v[i]);
  printf(")");
}
static char const* l2_name(CUtensorMapL2promotion l) {
  switch (l) {
    case CU_TENSOR_MAP_L2_PROMOTION_NONE: return "NONE";       case CU_TENSOR_MAP_L2_PROMOTION_L2_64B: return "L2_64B";
    case CU_TENSOR_MAP_L2_PROMOTION_L2_128B: return "L2_128B"; case CU_TENSOR_MAP_L2_PROMOTION_L2_256B: return "L2_256B";
    default: return "?";
  }
}
static void print_im2col() {
  if (irec.calls != 1) { printf("cuTensorMapEncodeIm2col called %d times", irec.calls); exit(3); }
  printf("cuTensorMapEncodeIm2col\n  dataType:            %s\n  tensorRank:          %u", fmt_name(irec.fmt), irec.rank);
  list("globalDim:           ", irec.dim, irec.rank);
  list("globalStrides:       ", irec.str, irec.rank - 1);
  ilist("pixelBoxLowerCorner: ", irec.lo, irec.rank - 2);
  ilist("pixelBoxUpperCorner: ", irec.up, irec.rank - 2);
  printf("\n  channelsPerPixel:    %u\n  pixelsPerColumn:     %u", irec.c, irec.px);
  list("elementStrides:      ", irec.es, irec.rank);
  printf("\n  interleave:          %s\n  swizzle:             %s\n  l2Promotion:         %s\n  oobFill:             %s",
         irec.il == CU_TENSOR_MAP_INTERLEAVE_NONE ? "NONE" : "?", sw_name(irec.sw),
         l2_name(irec.l2),
         irec.oob == CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE ? "NONE" : "?");
}
'''


def prelude():
    p = gen_tma.PRELUDE
    p = p.replace("#include <cute/algorithm/copy.hpp>",
                  "#include <cute/algorithm/copy.hpp>\n#include <cute/atom/copy_traits_sm90_im2col.hpp>\n"
                  "#include <cute/atom/copy_traits_sm100_im2col.hpp>")
    anchor = "void print(TmaDescArgs) {"
    assert anchor in p
    return p.replace(anchor, IM2COL + anchor + "\n  if (irec.calls) { print_im2col(); return; }")


g = gen_tma.g
tile = gen_tma.tile


def nhwc(t, dims, c, static=False):
    """The activation ((W,H[,D],N),C) of a packed NHWC / NDHWC tensor; dims = (N,[D,]H,W)."""
    mark = "_" if static else ""
    whdn = list(reversed(dims))         # W,H,[D,]N
    strides, s = [], c
    for d in whdn:
        strides.append(s)
        s *= d
    shape = "((" + ",".join(f"{mark}{d}" for d in whdn) + f"),{mark}{c})"
    stride = "((" + ",".join(f"{mark}{d}" for d in strides) + "),_1)"
    return g(t, shape, stride)


def conv(spatial, pad, filt, stride, dil, static=False, dgrad=False):
    """CUTLASS's corner arithmetic (conv/collective/detail.hpp) for an fprop, in W,H,D order."""
    mark = "_" if static else ""
    tup = lambda xs: "(" + ",".join(f"{mark}{x}" for x in xs) + ")"
    lo = [-p for p in pad]
    up = [p - (f - 1) * d for p, f, d in zip(pad, filt, dil)]
    srt = [0] * spatial
    dl = list(dil)
    if dgrad:
        lo = [p - (f - 1) * d for p, f, d in zip(pad, filt, dil)]
        srt = [(f - 1) * d for f, d in zip(filt, dil)]
        dl = [-d for d in dil]
    return ",".join([tup(lo), tup(up), tup(pad), tup(pad), tup(stride), tup(srt), tup(dl)])


def rows(base, gshape):
    return [base, f"tma_descriptor({base})", f"get_tma_tensor({base},{gshape})"]


def cases():
    out = []
    k_sw = lambda t, m, k, sw="SW128": tile("K", sw, t, m, k)
    # 2-D fprop, NHWC half, a 3x3 filter with padding 1: stride, dilation, tile
    act = nhwc("half_t", (2, 8, 8), 64)
    for st, dl, pad in [((1, 1), (1, 1), (1, 1)), ((2, 2), (1, 1), (1, 1)), ((1, 1), (2, 2), (2, 2)),
                        ((2, 1), (1, 2), (0, 2)), ((1, 1), (1, 1), (0, 0))]:
        p = conv(2, pad, (3, 3), st, dl)
        out += rows(f"make_im2col_tma_copy(SM90_TMA_LOAD_IM2COL{{}},{act},{k_sw('half_t', 128, 64)},"
                    f"(_128,_64),_1,{p})", "((8,8,2),64)")
    p = conv(2, (1, 1), (3, 3), (1, 1), (1, 1))
    # the tile defaulted (the smem shape), and the multicast size defaulted
    out += rows(f"make_im2col_tma_copy(SM90_TMA_LOAD_IM2COL{{}},{act},{k_sw('half_t', 128, 64)},{p})", "((8,8,2),64)")
    out += rows(f"make_im2col_tma_copy(SM90_TMA_LOAD_IM2COL{{}},{act},{k_sw('half_t', 64, 64)},(_64,_64),{p})",
                "((8,8,2),64)")
    # swizzles and types: the box is (C, pixels)
    for t, c, sw, k in [("half_t", 32, "SW64", 32), ("half_t", 16, "SW32", 16), ("half_t", 64, "INTER", 64),
                        ("bfloat16_t", 128, "SW128", 64), ("float", 32, "SW128", 32), ("float", 64, "SW64", 16),
                        ("float_e4m3_t", 128, "SW128", 128), ("tfloat32_t", 32, "SW128", 32)]:
        a = nhwc(t, (4, 14, 14), c)
        out += rows(f"make_im2col_tma_copy(SM90_TMA_LOAD_IM2COL{{}},{a},{k_sw(t, 128, k, sw)},(_128,_{k}),_1,{p})",
                    f"((14,14,4),{c})")
    out += rows(f"make_im2col_tma_copy(SM90_TMA_LOAD_IM2COL{{}},{nhwc('half_t', (4, 14, 14), 64)},"
                f"{k_sw('half_t', 256, 64)},(_256,_64),_1,{p})", "((14,14,4),64)")
    out += rows(f"make_im2col_tma_copy(SM90_TMA_LOAD_IM2COL{{}},{nhwc('half_t', (4, 14, 14), 64)},"
                f"{k_sw('half_t', 64, 64)},(_64,_64),_1,{p})", "((14,14,4),64)")
    # plain smem layouts
    out += rows(f"make_im2col_tma_copy(SM90_TMA_LOAD_IM2COL{{}},{act},(_64,_32):(_32,_1),(_64,_32),_1,{p})",
                "((8,8,2),64)")
    out += rows(f"make_im2col_tma_copy(SM90_TMA_LOAD_IM2COL{{}},{act},(_32,_64):(_64,_1),{p})", "((8,8,2),64)")
    # all static: the extents stay static (no FastDivmod)
    sact = nhwc("half_t", (2, 8, 8), 64, static=True)
    out += rows(f"make_im2col_tma_copy(SM90_TMA_LOAD_IM2COL{{}},{sact},{k_sw('half_t', 128, 64)},(_128,_64),_1,"
                f"{conv(2, (1, 1), (3, 3), (1, 1), (1, 1), static=True)})", "((_8,_8,_2),_64)")
    out += rows(f"make_im2col_tma_copy(SM90_TMA_LOAD_IM2COL{{}},{sact},{k_sw('half_t', 128, 64)},(_128,_64),_1,"
                f"{conv(2, (0, 1), (3, 3), (2, 1), (1, 1), static=True)})", "((_8,_8,_2),_64)")
    # static activation, dynamic convolution parameters, and the reverse
    out += rows(f"make_im2col_tma_copy(SM90_TMA_LOAD_IM2COL{{}},{sact},{k_sw('half_t', 128, 64)},(_128,_64),_1,{p})",
                "((_8,_8,_2),_64)")
    out += rows(f"make_im2col_tma_copy(SM90_TMA_LOAD_IM2COL{{}},{act},{k_sw('half_t', 128, 64)},(_128,_64),_1,"
                f"{conv(2, (1, 1), (3, 3), (1, 1), (1, 1), static=True)})", "((8,8,2),64)")
    # dgrad: the dilation negated, the filter's far corner as the lower corner of the filter offsets
    out += rows(f"make_im2col_tma_copy(SM90_TMA_LOAD_IM2COL{{}},{act},{k_sw('half_t', 128, 64)},(_128,_64),_1,"
                f"{conv(2, (1, 1), (3, 3), (1, 1), (1, 1), dgrad=True)})", "((8,8,2),64)")
    # 1-D (NWC) and 3-D (NDHWC)
    a1 = nhwc("half_t", (8, 100), 64)
    out += rows(f"make_im2col_tma_copy(SM90_TMA_LOAD_IM2COL{{}},{a1},{k_sw('half_t', 128, 64)},(_128,_64),_1,"
                f"{conv(1, (2,), (5,), (1,), (1,))})", "((100,8),64)")
    out += rows(f"make_im2col_tma_copy(SM90_TMA_LOAD_IM2COL{{}},{a1},{k_sw('half_t', 128, 64)},(_128,_64),_1,"
                f"{conv(1, (1,), (3,), (2,), (3,))})", "((100,8),64)")
    a3 = nhwc("half_t", (2, 6, 10, 12), 32)
    for st, dl, pad in [((1, 1, 1), (1, 1, 1), (1, 1, 1)), ((2, 2, 1), (1, 1, 2), (1, 0, 2))]:
        out += rows(f"make_im2col_tma_copy(SM90_TMA_LOAD_IM2COL{{}},{a3},{k_sw('half_t', 128, 32, 'SW64')},(_128,_32),_1,"
                    f"{conv(3, pad, (3, 3, 3), st, dl)})", "((12,10,6,2),32)")
    out += rows(f"make_im2col_tma_copy(SM90_TMA_LOAD_IM2COL_MULTICAST{{}},{a3},{k_sw('half_t', 128, 32, 'SW64')},"
                f"(_128,_32),_2,{conv(3, (1, 1, 1), (3, 3, 3), (1, 1, 1), (1, 1, 1))})", "((12,10,6,2),32)")
    # multicast: the pixels split over the CTAs
    for mc in ["_1", "_2", "_4"]:
        out += rows(f"make_im2col_tma_copy(SM90_TMA_LOAD_IM2COL_MULTICAST{{}},{act},{k_sw('half_t', 128, 64)},"
                    f"(_128,_64),{mc},{p})", "((8,8,2),64)")
    out += rows(f"make_im2col_tma_copy(SM90_TMA_LOAD_IM2COL_MULTICAST{{}},{act},{k_sw('half_t', 64, 32, 'SW64')},"
                f"(_64,_32),_4,{p})", "((8,8,2),64)")
    # no offsets (the C tile of a load, the D tile of a store): zero corners, unit strides
    for op in ["SM90_TMA_STORE_IM2COL", "SM90_TMA_LOAD_IM2COL"]:
        out += rows(f"make_im2col_tma_copy({op}{{}},{act},{k_sw('half_t', 128, 64)})", "((8,8,2),64)")
        out += rows(f"make_im2col_tma_copy({op}{{}},{act},{k_sw('half_t', 128, 64)},(_128,_64))", "((8,8,2),64)")
    out += rows(f"make_im2col_tma_copy(SM90_TMA_LOAD_IM2COL_MULTICAST{{}},{act},{k_sw('half_t', 128, 64)},(_128,_64),_2)",
                "((8,8,2),64)")
    out += rows(f"make_im2col_tma_copy(SM90_TMA_STORE_IM2COL{{}},{a3},{k_sw('half_t', 128, 32, 'SW64')})",
                "((12,10,6,2),32)")
    out += rows(f"make_im2col_tma_copy(SM90_TMA_STORE_IM2COL{{}},{act},{k_sw('half_t', 128, 64)},(_128,_64),_1,{p})",
                "((8,8,2),64)")
    # wgrad's activation: (C,(W,H,N)), the tile MN-major
    wg = g("half_t", "(64,(8,8,2))", "(_1,(64,512,4096))")
    out += rows(f"make_im2col_tma_copy(SM90_TMA_LOAD_IM2COL{{}},{wg},{tile('MN', 'SW128', 'half_t', 64, 128)},"
                f"(_64,_128),_1,{p})", "(64,(8,8,2))")
    # the coordinates of the im2col tensor
    ct = f"make_im2col_tma_copy(SM90_TMA_LOAD_IM2COL{{}},{act},{k_sw('half_t', 128, 64)},(_128,_64),_1,{p})"
    for crd in ["0", "1", "127", "(9,0)", "(5,(3,1,2))", "(70,(63,2,2))", "(127,(0,0,0))", "(_0,_0)"]:
        out.append(f"get_tma_tensor({ct},((8,8,2),64))({crd})")
    cs = (f"make_im2col_tma_copy(SM90_TMA_LOAD_IM2COL{{}},{sact},{k_sw('half_t', 128, 64)},(_128,_64),_1,"
          f"{conv(2, (0, 1), (3, 3), (2, 1), (1, 1), static=True)})")
    for crd in ["(_0,_0)", "(13,(7,2,1))", "(_35,(_3,_1,_2))"]:
        out.append(f"get_tma_tensor({cs},((_8,_8,_2),_64))({crd})")
    # SM100: the A operand of a 1-SM and a 2-SM UMMA, the B operand (a wgrad's activation)
    for m, n, two in [(128, 256, False), (256, 256, True), (128, 128, False)]:
        mop = "SM100_MMA_F16BF16_2x1SM_SS" if two else "SM100_MMA_F16BF16_SS"
        mma = f"make_tiled_mma({mop}<half_t,half_t,float,{m},{n},UMMA::Major::K,UMMA::Major::K>{{}})"
        sa = f"UMMA::tile_to_mma_shape(UMMA::Layout_K_SW128_Atom<half_t>{{}},partition_shape_A({mma},(_{m},_64)))"
        sb = f"UMMA::tile_to_mma_shape(UMMA::Layout_K_SW128_Atom<half_t>{{}},partition_shape_B({mma},(_{n},_64)))"
        ld, mc = ("SM100_TMA_2SM_LOAD_IM2COL", "SM100_TMA_2SM_LOAD_IM2COL_MULTICAST") if two else \
                 ("SM90_TMA_LOAD_IM2COL", "SM90_TMA_LOAD_IM2COL_MULTICAST")
        cl = "(_2,_1,_2,_1)" if two else "(_1,_2,_2,_1)"
        mt = f"(_{m},_{n},_64)"
        if n == 128:
            out += rows(f"make_im2col_tma_copy_B_sm100({ld}{{}},{act},{sb},{mt},{mma},{p})", "((8,8,2),64)")
            out += rows(f"make_im2col_tma_atom_B_sm100({mc}{{}},{act},{sb},{mt},{mma},{cl},{p})", "((8,8,2),64)")
            continue
        out += rows(f"make_im2col_tma_copy_A_sm100({ld}{{}},{act},{sa},{mt},{mma},{p})", "((8,8,2),64)")
        out += rows(f"make_im2col_tma_copy_A_sm100({mc}{{}},{act},{sa},{mt},{mma},{p})", "((8,8,2),64)")
        out += rows(f"make_im2col_tma_atom_A_sm100({ld}{{}},{act},{sa},{mt},{mma},{cl},{p})", "((8,8,2),64)")
        out += rows(f"make_im2col_tma_atom_A_sm100({mc}{{}},{act},{sa},{mt},{mma},{cl},{p})", "((8,8,2),64)")
    mma1 = "make_tiled_mma(SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256,UMMA::Major::K,UMMA::Major::K>{})"
    sa1 = f"UMMA::tile_to_mma_shape(UMMA::Layout_K_SW128_Atom<half_t>{{}},partition_shape_A({mma1},(_128,_64)))"
    # rejected
    out += [
        # the tile and the smem layout differ
        f"make_im2col_tma_copy(SM90_TMA_LOAD_IM2COL{{}},{act},{k_sw('half_t', 128, 64)},(_64,_64),_1,{p})",
        # a multicast size that does not divide the smem tile
        f"make_im2col_tma_copy(SM90_TMA_LOAD_IM2COL_MULTICAST{{}},{act},{k_sw('half_t', 128, 64)},(_128,_64),_3,{p})",
        # one vectorizable mode only: every other pixel of the tile
        f"make_im2col_tma_copy(SM90_TMA_LOAD_IM2COL{{}},{act},(_64,_64):(_64,_1),<_64:_2,_64:_1>,_1,{p})",
        # a type TMA has no format for
        f"make_im2col_tma_copy(SM90_TMA_LOAD_IM2COL{{}},{nhwc('int16_t', (2, 8, 8), 64)},(_64,_64):(_64,_1),{p})",
        # a swizzle TMA cannot do
        f"make_im2col_tma_copy(SM90_TMA_LOAD_IM2COL{{}},{act},composition(Swizzle<3,3,3>{{}},(_64,_64):(_64,_1)),{p})",
        # the convolution parameters of fewer spatial modes than the activation's
        f"make_im2col_tma_copy(SM90_TMA_LOAD_IM2COL{{}},{a3},{k_sw('half_t', 128, 32, 'SW64')},{p})",
        # a multicast size known only at run time (CuTe checks it divides the tile at compile time)
        f"make_im2col_tma_copy(SM90_TMA_LOAD_IM2COL_MULTICAST{{}},{act},{k_sw('half_t', 128, 64)},(_128,_64),2,{p})",
        # a zero traversal stride
        f"make_im2col_tma_copy(SM90_TMA_LOAD_IM2COL{{}},{sact},{k_sw('half_t', 128, 64)},"
        f"{conv(2, (1, 1), (3, 3), (0, 1), (1, 1), static=True)})",
        # an SM100 copy of a store, of a tiled op
        f"make_im2col_tma_copy_A_sm100(SM90_TMA_STORE_IM2COL{{}},{act},{sa1},(_128,_256,_64),{mma1},{p})",
        f"make_im2col_tma_copy_A_sm100(SM90_TMA_LOAD{{}},{act},{sa1},(_128,_256,_64),{mma1},{p})",
        # the im2col copy has no gmem basis
        f"tma_gbasis({ct})",
    ]
    return out


def main():
    oracle = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("KUTE_ORACLE")
    if not oracle:
        raise SystemExit(__doc__)
    sys.path.insert(0, oracle)
    import expr2cxx, cxx_oracle
    expr2cxx.STATIC_ONLY = False
    gen_tma.PRELUDE = prelude()
    exprs = cases()
    cxx = [expr2cxx.translate(e) for e in exprs]
    answers = ["error"] * len(exprs)
    with tempfile.TemporaryDirectory() as d:
        exe, alive = gen_tma.build(cxx, cxx_oracle.includes(), d)
        out = subprocess.run([exe], capture_output=True, text=True).stdout
    parts = re.split(r"(?:^|\n)#(\d+)\t", out)
    for i, body in zip(parts[1::2], parts[2::2]):
        done = body.split("\n#END#")
        answers[int(i)] = done[0].strip("\n").strip().replace("\n", "\\n") if len(done) > 1 else "error"
    print("# CuTe's im2col TMA copies (make_im2col_tma_copy and its SM100 forms), from its own C++ headers: "
          "gen_tma_im2col.py")
    for e, a in zip(exprs, answers):
        print(f"{e}\t{a}")


if __name__ == "__main__":
    main()
