#!/usr/bin/env python3
"""Rebuild tma.tsv: CuTe's own answers for TMA copy construction.

usage: gen_tma.py ORACLE_DIR > tma.tsv        (ORACLE_DIR: the CuTe oracle, with
                                              expr2cxx.py and cxx_oracle.py; its
                                              setup.sh must have fetched the headers)

CuTe's make_tma_copy builds a TMA descriptor with the CUDA driver's
cuTensorMapEncodeTiled. No driver is needed here: the harness compiles CuTe's
headers with g++ as if for CUDA 12.8 host code, calls the driver directly
(CUTLASS_ENABLE_DIRECT_CUDA_DRIVER_CALL) and links a stub of
cuTensorMapEncodeTiled that returns success and records its arguments, so that
CuTe's host code runs to the end, its asserts included.

Each row is `expr \t answer`: the expression in kute's language (translated to
C++ by the oracle's expr2cxx, integers dynamic or static as written), and what
CuTe prints, newlines written as the two characters `\\n`; `error` where CuTe
rejects the case (a static_assert, an assert or an exception).
The harness defines, beside CuTe's functions:
  make_gmem_ptr<T>(a)      CuTe's make_gmem_ptr<T>((void*)a)
  make_smem_ptr<T>(a)      CuTe's make_smem_ptr<T>((void*)a)
  get_tma_tensor(c, shape) c.get_tma_tensor(shape)
  tma_gbasis(c)            the copy's AuxParams::TmaGmemBasis{} (TMA box mode -> gmem modes)
  tma_descriptor(c)        the arguments CuTe gave cuTensorMapEncodeTiled when it built c
  bulk_copy_atom(a,s,d)    the atom CuTe's copy(a, s, d) of an SM90_BULK_COPY_AUTO atom issues
                           (caught by an overload of copy for bulk-copy atoms, which prints it)
and evaluates tma_partition (CuTe's device-side partitioner; it runs on the host too).
The smem tensors of the cases start at nonzero addresses: the host's printf writes a
null pointer as `(nil)`, a detail of the C library, not of CuTe.
"""
import os, re, subprocess, sys, tempfile

PRELUDE = r'''
#include <cute/tensor.hpp>
#include <cute/atom/copy_traits_sm90_tma.hpp>
#include <cute/atom/copy_traits_sm100_tma.hpp>
#include <cute/algorithm/copy.hpp>
#include <cute/atom/mma_traits_sm90_gmma.hpp>
#include <cute/atom/mma_traits_sm100.hpp>
#include <unistd.h>
#include <sys/wait.h>
#include <cstdio>
using namespace cute;
template <class T> void show(T const& t) { print(t); }

// The last call of the driver's encoder, recorded.
static struct { CUtensorMapDataType fmt; cuuint32_t rank; cuuint64_t dim[5], str[5]; cuuint32_t box[5], es[5];
                CUtensorMapInterleave il; CUtensorMapSwizzle sw; CUtensorMapL2promotion l2; CUtensorMapFloatOOBfill oob;
                int calls; } rec;
extern "C" CUresult cuTensorMapEncodeTiled(CUtensorMap*, CUtensorMapDataType f, cuuint32_t rank, void*,
    const cuuint64_t* dim, const cuuint64_t* str, const cuuint32_t* box, const cuuint32_t* es,
    CUtensorMapInterleave il, CUtensorMapSwizzle sw, CUtensorMapL2promotion l2, CUtensorMapFloatOOBfill oob) {
  rec.fmt = f; rec.rank = rank; rec.il = il; rec.sw = sw; rec.l2 = l2; rec.oob = oob; rec.calls++;
  for (cuuint32_t i = 0; i < rank && i < 5; ++i) {
    rec.dim[i] = dim[i]; rec.box[i] = box[i]; rec.es[i] = es[i];
    if (i + 1 < rank) rec.str[i] = str[i];
  }
  return CUDA_SUCCESS;
}
static char const* fmt_name(CUtensorMapDataType f) {
  switch (f) {
    case CU_TENSOR_MAP_DATA_TYPE_UINT8: return "UINT8";       case CU_TENSOR_MAP_DATA_TYPE_UINT16: return "UINT16";
    case CU_TENSOR_MAP_DATA_TYPE_UINT32: return "UINT32";     case CU_TENSOR_MAP_DATA_TYPE_INT32: return "INT32";
    case CU_TENSOR_MAP_DATA_TYPE_UINT64: return "UINT64";     case CU_TENSOR_MAP_DATA_TYPE_INT64: return "INT64";
    case CU_TENSOR_MAP_DATA_TYPE_FLOAT16: return "FLOAT16";   case CU_TENSOR_MAP_DATA_TYPE_FLOAT32: return "FLOAT32";
    case CU_TENSOR_MAP_DATA_TYPE_FLOAT64: return "FLOAT64";   case CU_TENSOR_MAP_DATA_TYPE_BFLOAT16: return "BFLOAT16";
    case CU_TENSOR_MAP_DATA_TYPE_TFLOAT32: return "TFLOAT32";
    case CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B: return "16U4_ALIGN8B";
    case CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B: return "16U4_ALIGN16B";
    case CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B: return "16U6_ALIGN16B";
    default: return "?";
  }
}
static char const* sw_name(CUtensorMapSwizzle s) {
  switch (s) {
    case CU_TENSOR_MAP_SWIZZLE_NONE: return "NONE"; case CU_TENSOR_MAP_SWIZZLE_32B: return "32B";
    case CU_TENSOR_MAP_SWIZZLE_64B: return "64B";   case CU_TENSOR_MAP_SWIZZLE_128B: return "128B";
    case CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B: return "128B_ATOM_32B";
    case CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B_FLIP_8B: return "128B_ATOM_32B_FLIP_8B";
    case CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B: return "128B_ATOM_64B";
    default: return "?";
  }
}
struct TmaDescArgs {};
template <class C> TmaDescArgs tma_descriptor(C const&) { return {}; }
template <class N> static void list(char const* name, N const* v, unsigned n) {
  printf("\n  %s(", name);
  for (unsigned i = 0; i < n; ++i) printf(i ? ",%llu" : "%llu", (unsigned long long)v[i]);
  printf(")");
}
void print(TmaDescArgs) {
  if (rec.calls != 1) { printf("cuTensorMapEncodeTiled called %d times", rec.calls); exit(3); }
  printf("cuTensorMapEncodeTiled\n  dataType:       %s\n  tensorRank:     %u", fmt_name(rec.fmt), rec.rank);
  list("globalDim:      ", rec.dim, rec.rank);
  list("globalStrides:  ", rec.str, rec.rank - 1);
  list("boxDim:         ", rec.box, rec.rank);
  list("elementStrides: ", rec.es, rec.rank);
  printf("\n  interleave:     %s\n  swizzle:        %s\n  l2Promotion:    %s\n  oobFill:        %s",
         rec.il == CU_TENSOR_MAP_INTERLEAVE_NONE ? "NONE" : "?", sw_name(rec.sw),
         rec.l2 == CU_TENSOR_MAP_L2_PROMOTION_L2_128B ? "L2_128B" : "?",
         rec.oob == CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE ? "NONE" : "?");
}
template <class T> auto make_gmem_ptr(int a) { return cute::make_gmem_ptr<T>((void*)(uintptr_t)a); }
template <class T> auto make_smem_ptr(int a) { return cute::make_smem_ptr<T>((void*)(uintptr_t)a); }
template <class C, class S> auto get_tma_tensor(C const& c, S const& s) { return c.get_tma_tensor(s); }
template <class C> auto tma_gbasis(C const&) { return typename C::AuxParams::TmaGmemBasis{}; }

// CuTe's copy of an SM90_BULK_COPY_AUTO atom builds a bulk-copy atom of the
// tensors' common vector and copies with it; this overload, more specialized
// than CuTe's, catches that atom and prints it (once), so the rest of the copy,
// which needs a GPU, does nothing.
static int bulk_seen;
namespace cute {
template <class Op, int N, class... X, class T, class SE, class SL, class DE, class DL>
void copy(Copy_Atom<Copy_Traits<Op, C<N>, X...>, T> const& a, Tensor<SE,SL> const&, Tensor<DE,DL>&) {
  static_assert(is_same<Op, SM90_BULK_COPY_G2S>::value || is_same<Op, SM90_BULK_COPY_S2G>::value);
  if (!bulk_seen++) print(a);
}
}
struct BulkCopied {};
void print(BulkCopied) { if (!bulk_seen) { printf("no bulk copy"); exit(3); } }
template <class A, class S, class D> BulkCopied bulk_copy_atom(A const& a, S const& s, D d) { copy(a, s, d); return {}; }
'''

MAIN = r'''
int main() {
  int n = sizeof(ids)/sizeof(ids[0]);
  for (int k = 0; k < n; ++k) {
    fflush(stdout);
    pid_t p = fork();
    if (p == 0) { printf("#%d\t", ids[k]); table[k](); printf("\n#END#\n"); fflush(stdout); _exit(0); }
    int st = 0; waitpid(p, &st, 0);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) { printf("\n#%d\terror\n", ids[k]); }
  }
}
'''

# ---------------------------------------------------------------- the cases

def g(t, shape, stride, addr=0):
    return f"make_tensor(make_gmem_ptr<{t}>({addr}),{shape}:{stride})"

def atom(major, sw, t):
    return f"GMMA::Layout_{major}_{sw}_Atom<{t}>{{}}"

def tile(major, sw, t, m, k):
    # the smem tile is (M,K) whichever the major
    return f"tile_to_shape({atom(major, sw, t)},(_{m},_{k}))"

# bytes of a type; the GMMA atom spans 16/32/64/128 bytes of its major mode
BYTES = {"half_t": 2, "bfloat16_t": 2, "float": 4, "tfloat32_t": 4, "float_e4m3_t": 1, "float_e5m2_t": 1,
         "int8_t": 1, "uint8_t": 1}
SW_BYTES = {"INTER": 16, "SW32": 32, "SW64": 64, "SW128": 128}


def gmem_mk(t, major, m="4096", k="4096"):
    """An (M,K) gmem tensor: K-major (row-major) or MN-major (column-major)."""
    if major == "K":
        return g(t, f"({m},{k})", f"({k},_1)")
    return g(t, f"({m},{k})", f"(_1,{m})")


def full_rows(base, shape):
    """The four rows of a made copy: itself, its descriptor, its TMA tensor, its gmem basis."""
    return [base, f"tma_descriptor({base})", f"get_tma_tensor({base},{shape})", f"tma_gbasis({base})"]


def cases():
    out = []
    # the GMMA smem atoms of each type and major, tiled to (M,K) tiles
    for t in ["half_t", "bfloat16_t", "float", "float_e4m3_t"]:
        for major in ["K", "MN"]:
            for sw in ["INTER", "SW32", "SW64", "SW128"]:
                width = SW_BYTES[sw] // BYTES[t]      # elements of the atom along its major mode
                for m in [64, 128, 256]:
                    k = max(64, width) if major == "K" else 64
                    if t != "half_t" and m == 256:
                        continue
                    s = tile(major, sw, t, m, k)
                    base = f"make_tma_copy(SM90_TMA_LOAD{{}},{gmem_mk(t, major)},{s})"
                    out += full_rows(base, "(4096,4096)")
    # multicast: the box split over the cluster (cluster size as the 4th or 5th argument)
    for n in [1, 2, 4]:
        for major in ["K", "MN"]:
            s = tile(major, "SW128", "half_t", 128, 64)
            base = f"make_tma_copy(SM90_TMA_LOAD_MULTICAST{{}},{gmem_mk('half_t', major)},{s},(_128,_64),_{n})"
            out += full_rows(base, "(4096,4096)")
    s = tile("K", "SW64", "bfloat16_t", 64, 32)
    out += full_rows(f"make_tma_copy(SM90_TMA_LOAD_MULTICAST{{}},{gmem_mk('bfloat16_t', 'K')},{s},_2)", "(4096,4096)")
    # store and reduce-add of an epilogue tile
    for op in ["SM90_TMA_STORE", "SM90_TMA_REDUCE_ADD"]:
        for t in ["half_t", "float"]:
            s = tile("MN", "SW128" if t == "half_t" else "SW64", t, 64, 32)
            out += full_rows(f"make_tma_copy({op}{{}},{g(t, '(1024,512)', '(_1,1024)')},{s})", "(1024,512)")
    # a 3-D batched gmem tensor (M,K,L), the smem tile 2-D
    out += full_rows(f"make_tma_copy(SM90_TMA_LOAD{{}},{g('half_t', '(512,256,8)', '(256,_1,131072)')},"
                     f"{tile('K', 'SW128', 'half_t', 128, 64)},(_128,_64),_1)", "(512,256,8)")
    out += full_rows(f"make_tma_copy(SM90_TMA_LOAD{{}},{g('half_t', '(512,256,8)', '(256,_1,131072)')},"
                     f"{tile('K', 'SW128', 'half_t', 128, 64)},(_128,_64,_1),_2)", "(512,256,8)")
    # plain (unswizzled) smem layouts, as CuTe's own examples
    out += full_rows(f"make_tma_copy(SM90_TMA_LOAD{{}},{g('float', '(1024,256)', '(256,_1)')},(_64,_32):(_32,_1))",
                     "(1024,256)")
    out += full_rows(f"make_tma_copy(SM90_TMA_LOAD{{}},{g('float', '(1024,32,512)', '(64,_1,65536)')},"
                     f"(_16,_8,_2):(_16,_1,_8))", "(1024,32,512)")
    out += full_rows(f"make_tma_copy(SM90_TMA_LOAD{{}},{g('float', '(1024,256)', '(_1,1024)')},(_256,_8):(_1,_256))",
                     "(1024,256)")
    # a hierarchical gmem tensor (CuTe's cuTENSOR example), a tile taking parts of its modes
    out += full_rows(f"make_tma_copy(SM90_TMA_LOAD{{}},make_tensor(make_gmem_ptr<float>(0),((32,40),((8,8),656))),"
                     f"make_layout((_128,(_32,_2))),(_128,(_32,_2)),_1)", "((32,40),((8,8),656))")
    # six gmem modes the box walks: the last two share one TMA mode
    out += full_rows(f"make_tma_copy(SM90_TMA_LOAD{{}},{g('half_t', '(64,2,2,2,2,2)', '(_1,192,384,768,1536,3072)')},"
                     f"make_layout((_64,_2,_2,_2,_2,_2)))", "(64,2,2,2,2,2)")
    out += full_rows(f"make_tma_copy(SM90_TMA_LOAD{{}},{g('float', '(8,3,5,7,2,4)', '(_1,8,24,120,840,1680)')},"
                     f"make_layout((_8,_1,_1,_1,_2,_4)),(_8,_1,_1,_1,_2,_4),_1)", "(8,3,5,7,2,4)")
    # the same with static inner extents: a tile of 128 out of (_32,40) and (_32,_2) out of ((_8,8),656)
    out += full_rows(f"make_tma_copy(SM90_TMA_LOAD{{}},make_tensor(make_gmem_ptr<float>(0),((_32,40),((_8,_8),656))),"
                     f"make_layout((_128,(_32,_2))),(_128,(_32,_2)),_1)", "((_32,40),((_8,_8),656))")
    # a tile of layouts: every other row of gmem, so one TMA box is a single row
    out += full_rows(f"make_tma_copy(SM90_TMA_LOAD{{}},{gmem_mk('half_t', 'K')},(_64,_32):(_32,_1),<_64:_2,_32:_1>,_1)",
                     "(4096,4096)")
    # a dynamic unit stride: the TMA coordinate's scale is dynamic too
    out += full_rows(f"make_tma_copy(SM90_TMA_LOAD{{}},{g('float', '(4096,4096)', '(1,4096)')},"
                     f"{tile('MN', 'SW128', 'float', 64, 32)})", "(4096,4096)")
    # a cluster shape as a tuple: the box split over its 4 CTAs
    out += full_rows(f"make_tma_copy(SM90_TMA_LOAD_MULTICAST{{}},{gmem_mk('half_t', 'K')},"
                     f"{tile('K', 'SW128', 'half_t', 128, 64)},(_128,_64),(_2,_2))", "(4096,4096)")
    out += full_rows(f"make_tma_atom(SM90_TMA_LOAD_MULTICAST{{}},{gmem_mk('half_t', 'K')},"
                     f"{tile('K', 'SW128', 'half_t', 128, 64)},(_128,_64),(_2,_4))", "(4096,4096)")
    # the C tile of an epilogue store
    out += full_rows(f"make_tma_copy_C_sm90(SM90_TMA_STORE{{}},{g('bfloat16_t', '(2048,1024)', '(1024,_1)')},"
                     f"{tile('K', 'SW128', 'bfloat16_t', 128, 64)},(_128,_64,_32))", "(2048,1024)")
    # a 2-SM op given to make_tma_copy, which takes any TMA op
    out += full_rows(f"make_tma_copy(SM100_TMA_2SM_LOAD{{}},{gmem_mk('half_t', 'K')},{tile('K', 'SW128', 'half_t', 64, 64)})",
                     "(4096,4096)")
    # static gmem: CuTe merges contiguous modes into boxes of at most 256
    out += full_rows(f"make_tma_copy(SM90_TMA_LOAD{{}},{g('half_t', '(_64,_64)', '(_64,_1)')},(_64,_64):(_64,_1))",
                     "(_64,_64)")
    out += full_rows(f"make_tma_copy(SM90_TMA_LOAD{{}},{g('half_t', '(_8,_64)', '(_64,_1)')},(_8,_64):(_64,_1))",
                     "(_8,_64)")
    # make_tma_copy_A/B_sm90 with a (M,N,K) CTA tile and a cluster shape
    for mc in ["SM90_TMA_LOAD", "SM90_TMA_LOAD_MULTICAST"]:
        for cl in ["(_1,_1,_1)", "(_2,_2,_1)", "(_1,_4,_1)"]:
            if mc == "SM90_TMA_LOAD" and cl != "(_1,_1,_1)":
                continue
            sa = tile("K", "SW128", "half_t", 128, 64)
            sb = tile("K", "SW128", "half_t", 256, 64)
            out += full_rows(f"make_tma_copy_A_sm90({mc}{{}},{gmem_mk('half_t', 'K')},{sa},(_128,_256,_64),{cl})",
                             "(4096,4096)")
            out += full_rows(f"make_tma_copy_B_sm90({mc}{{}},{gmem_mk('half_t', 'K')},{sb},(_128,_256,_64),{cl})",
                             "(4096,4096)")
    # make_tma_atom: the atom alone
    out += full_rows(f"make_tma_atom(SM90_TMA_LOAD{{}},{gmem_mk('half_t', 'K')},{tile('K', 'SW128', 'half_t', 128, 64)},"
                     f"(_128,_64))", "(4096,4096)")
    out += full_rows(f"make_tma_atom(SM90_TMA_LOAD_MULTICAST{{}},{gmem_mk('float', 'MN')},"
                     f"{tile('MN', 'SW128', 'float', 64, 32)},(_64,_32),_2)", "(4096,4096)")
    # SM100: the atoms of a tiled UMMA (1-SM and 2-SM), the smem tile from UMMA::tile_to_mma_shape
    for m, n, two in [(128, 256, False), (256, 256, True), (256, 128, True)]:
        op = "SM100_MMA_F16BF16_2x1SM_SS" if two else "SM100_MMA_F16BF16_SS"
        mma = f"make_tiled_mma({op}<half_t,half_t,float,{m},{n},UMMA::Major::K,UMMA::Major::K>{{}})"
        mt = f"(_{m},_{n},_64)"
        sa = f"UMMA::tile_to_mma_shape(UMMA::Layout_K_SW128_Atom<half_t>{{}},partition_shape_A({mma},(_{m},_64)))"
        sb = f"UMMA::tile_to_mma_shape(UMMA::Layout_K_SW128_Atom<half_t>{{}},partition_shape_B({mma},(_{n},_64)))"
        ld = "SM100_TMA_2SM_LOAD" if two else "SM90_TMA_LOAD"
        mc = "SM100_TMA_2SM_LOAD_MULTICAST" if two else "SM90_TMA_LOAD_MULTICAST"
        cl = "(_2,_2,_2,_1)" if two else "(_1,_2,_2,_1)"
        ga, gb = gmem_mk('half_t', 'K'), gmem_mk('half_t', 'K', "2048", "1024")
        out += full_rows(f"make_tma_atom_A_sm100({ld}{{}},{ga},{sa},{mt},{mma},{cl})", "(4096,4096)")
        out += full_rows(f"make_tma_atom_B_sm100({mc}{{}},{gb},{sb},{mt},{mma},{cl})", "(2048,1024)")
        out += full_rows(f"make_tma_copy_A_sm100({ld}{{}},{ga},{sa},{mt},{mma})", "(4096,4096)")
        out += full_rows(f"make_tma_copy_B_sm100({mc}{{}},{gb},{sb},{mt},{mma})", "(2048,1024)")
    mma = "make_tiled_mma(SM100_MMA_F16BF16_SS<bfloat16_t,bfloat16_t,float,128,128,UMMA::Major::MN,UMMA::Major::MN>{})"
    s_mn = f"UMMA::tile_to_mma_shape(UMMA::Layout_MN_SW128_Atom<bfloat16_t>{{}},partition_shape_A({mma},(_128,_64)))"
    out += full_rows(f"make_tma_atom_A_sm100(SM90_TMA_LOAD_MULTICAST{{}},{gmem_mk('bfloat16_t', 'MN')},{s_mn},"
                     f"(_128,_128,_64),{mma},(_1,_2,_2,_1))", "(4096,4096)")
    out += full_rows(f"make_tma_copy_A_sm100(SM90_TMA_LOAD{{}},{gmem_mk('bfloat16_t', 'MN')},{s_mn},(_128,_128,_64),{mma})",
                     "(4096,4096)")
    # tma_partition: the smem tile and the TMA tile of gmem as ((TMA, TMA_Iter), Rest...), per CTA of a multicast
    sk = tile("K", "SW128", "half_t", 128, 64)
    ck = f"make_tma_copy(SM90_TMA_LOAD{{}},{gmem_mk('half_t', 'K')},{sk})"
    ckm = f"make_tma_copy(SM90_TMA_LOAD_MULTICAST{{}},{gmem_mk('half_t', 'K')},{sk},(_128,_64),_2)"
    st = f"make_tensor(make_smem_ptr<half_t>(4096),group<0,2>({sk}))"
    gt = lambda c: f"zipped_divide(get_tma_tensor({c},(4096,4096)),(_128,_64))"
    out += [f"tma_partition({ck},{st},{gt(ck)})",
            f"tma_partition({ck},_0,_1:_0,{st},{gt(ck)})",
            f"tma_partition({ckm},_0,_2:_1,{st},{gt(ckm)})",
            f"tma_partition({ckm},_1,_2:_1,{st},{gt(ckm)})"]
    sf = tile("MN", "SW64", "float", 64, 32)
    cf = f"make_tma_copy(SM90_TMA_LOAD_MULTICAST{{}},{gmem_mk('float', 'MN')},{sf},(_64,_32),_4)"
    stf = f"make_tensor(make_smem_ptr<float>(1024),group<0,2>(tile_to_shape(GMMA::Layout_MN_SW64_Atom<float>{{}},(_64,_32,_3))))"
    for k in range(4):
        out.append(f"tma_partition({cf},_{k},_4:_1,{stf},{gt(cf).replace('(_128,_64)', '(_64,_32)')})")
    out.append(f"tma_partition({cf},3,_4:_1,{stf},{gt(cf).replace('(_128,_64)', '(_64,_32)')})")
    sp = "(_64,_32):(_32,_1)"
    cp = f"make_tma_copy(SM90_TMA_LOAD{{}},{g('float', '(1024,256)', '(256,_1)')},{sp})"
    out.append(f"tma_partition({cp},make_tensor(make_smem_ptr<float>(1024),((_64,_32)):((_32,_1))),"
               f"zipped_divide(get_tma_tensor({cp},(1024,256)),(_64,_32)))")
    # a static 0 coordinate evaluates to a static 0 whatever the shape (tma_partition's offsets)
    out += ["(_4,(32,64)):(_1,(_4,128))(_0,_0)",
            "(((_64,_128),_1),(32,64)):(((_1@0,_1@1),_0),(_128@1,_64@0))(((_4096,_0),_0))",
            "(((_64,_128),_1),(32,64)):(((_1@0,_1@1),_0),(_128@1,_64@0))(((_0,_0),_0))"]
    # the SM90 bulk copy: the auto atom, the atoms of a width, the one CuTe's copy picks
    for t in ["half_t", "float", "uint8_t"]:
        out.append(f"Copy_Atom<SM90_BULK_COPY_AUTO,{t}>{{}}")
    for m in ["SrcLayout", "DstLayout", "RefLayout", "ThrID"]:
        out.append(f"Copy_Traits<SM90_BULK_COPY_AUTO>::{m}{{}}")
    out += ["make_tiled_copy(Copy_Atom<SM90_BULK_COPY_AUTO,half_t>{},_1:_0,_1:_0)",
            "make_tiled_copy(Copy_Atom<SM90_BULK_COPY_AUTO,float>{},_1:_0,_8:_1)"]
    for op in ["SM90_BULK_COPY_G2S", "SM90_BULK_COPY_S2G"]:
        for n in [128, 256, 1024, 4096, 64, 200]:
            out.append(f"Copy_Traits<{op},C<{n}>>::SrcLayout{{}}")
        out.append(f"Copy_Atom<Copy_Traits<{op},C<1024>>,half_t>{{}}")
        out.append(f"Copy_Atom<Copy_Traits<{op},C<256>>,float>{{}}")
    sm = lambda t, a, l: f"make_tensor(make_smem_ptr<{t}>({a}),{l})"
    bulk = lambda t, src, dst: f"bulk_copy_atom(Copy_Atom<SM90_BULK_COPY_AUTO,{t}>{{}},{src},{dst})"
    for t, src, dst in [
        ("half_t", g("half_t", "(_64,_8)", "(_1,_64)"), sm("half_t", 4096, "(_64,_8):(_1,_64)")),
        ("half_t", sm("half_t", 4096, "(_64,_8):(_1,_64)"), g("half_t", "(_64,_8)", "(_1,_64)")),
        ("half_t", g("half_t", "(_64,_8)", "(_1,_128)"), sm("half_t", 4096, "(_64,_8):(_1,_64)")),
        ("float", g("float", "(_8,_32)", "(_32,_1)"), sm("float", 1024, "(_8,_32):(_32,_1)")),
        ("float", g("float", "(_8,_32)", "(_32,_1)"), sm("float", 1024, "(_8,_32):(_1,_8)")),
        ("float", sm("float", 1024, "(_4,_4,_8):(_1,_4,_16)"), g("float", "(_4,_4,_8)", "(_1,_4,_32)")),
        ("uint8_t", g("uint8_t", "(_16,_16)", "(_16,_1)"), sm("uint8_t", 256, "(_16,_16):(_16,_1)")),
        ("uint8_t", g("uint8_t", "(_48)", "(_1)"), sm("uint8_t", 256, "(_48):(_1)")),
        ("double", g("double", "_2", "_1"), sm("double", 64, "_2:_1")),
        ("double", g("double", "(_2)", "(_1)"), sm("double", 64, "(_2):(_1)")),
        ("half_t", g("half_t", "((_8,_8))", "((_1,_8))"), sm("half_t", 64, "((_8,_8)):((_1,_8))")),
        ("half_t", g("half_t", "((_8,_8),_4)", "((_1,_8),_64)"), sm("half_t", 64, "((_8,_8),_4):((_1,_8),_64)")),
        ("uint128_t", g("uint128_t", "(_1,_4)", "(_0,_1)"), sm("uint128_t", 64, "(_1,_4):(_0,_1)")),
        ("half_t", g("half_t", "(_8,_64)", "(_64,_1)"),
         "make_tensor(make_smem_ptr<half_t>(4096),tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{},(_8,_64)))"),
        # rejected: a common vector under 128 bits, two gmem tensors, a type change
        ("float", g("float", "(_8,_8)", "(_8,_1)"), sm("float", 1024, "(_8,_8):(_1,_8)")),
        ("half_t", g("half_t", "(_64,_8)", "(_1,_64)"), g("half_t", "(_64,_8)", "(_1,_64)", 4096)),
        ("half_t", g("half_t", "(_64,_8)", "(_1,_64)"), sm("float", 4096, "(_64,_8):(_1,_64)")),
        ("uint8_t", g("uint8_t", "(_24)", "(_1)"), sm("uint8_t", 256, "(_24):(_1)")),
    ]:
        out.append(bulk(t, src, dst))
    # rejected
    out += [
        # the smem majorness does not match the gmem's (the first TMA stride is not 1)
        f"make_tma_copy(SM90_TMA_LOAD{{}},{gmem_mk('half_t', 'MN')},{tile('K', 'SW128', 'half_t', 64, 64)})",
        # a gmem stride of 100 halves (200 bytes) is not a multiple of 16 bytes
        f"make_tma_copy(SM90_TMA_LOAD{{}},{g('half_t', '(4096,100)', '(100,_1)')},{tile('K', 'SW32', 'half_t', 64, 16)})",
        # a swizzle TMA cannot do: Swizzle<3,3,3>, Swizzle<2,4,2>
        f"make_tma_copy(SM90_TMA_LOAD{{}},{gmem_mk('half_t', 'K')},composition(Swizzle<3,3,3>{{}},(_8,_64):(_64,_1)))",
        f"make_tma_copy(SM90_TMA_LOAD{{}},{gmem_mk('half_t', 'K')},composition(Swizzle<2,4,2>{{}},(_8,_64):(_64,_1)))",
        # a box dimension of 512 > 256
        f"make_tma_copy(SM90_TMA_LOAD{{}},{g('float', '(4096,4096)', '(_1,4096)')},(_512,_2):(_1,_512))",
        # the tile and the smem layout differ in size
        f"make_tma_copy(SM90_TMA_LOAD{{}},{gmem_mk('half_t', 'K')},{tile('K', 'SW128', 'half_t', 64, 64)},(_128,_64),_1)",
        # multicast over 4 CTAs of a box of 3 rows
        f"make_tma_copy(SM90_TMA_LOAD_MULTICAST{{}},{g('float', '(4096,4096)', '(4096,_1)')},(_3,_32):(_32,_1),_4)",
        # a gmem address not 16-byte aligned
        f"make_tma_copy(SM90_TMA_LOAD{{}},{g('half_t', '(4096,4096)', '(4096,_1)', 8)},{tile('K', 'SW128', 'half_t', 64, 64)})",
        # a reduce-add has no UMMA form
        f"make_tma_atom_A_sm100(SM90_TMA_REDUCE_ADD{{}},{gmem_mk('half_t', 'K')},"
        f"UMMA::tile_to_mma_shape(UMMA::Layout_K_SW128_Atom<half_t>{{}},((_128,_16),_1,_4)),(_128,_256,_64),"
        f"make_tiled_mma(SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256,UMMA::Major::K,UMMA::Major::K>{{}}),(_1,_1,_1,_1))",
        # a multicast over more CTAs than the box has elements
        f"make_tma_copy(SM90_TMA_LOAD_MULTICAST{{}},{g('float', '(4096,4096)', '(4096,_1)')},(_2,_4):(_4,_1),_16)",
        # a type TMA has no format for
        f"make_tma_copy(SM90_TMA_LOAD{{}},{g('int16_t', '(4096,4096)', '(4096,_1)')},(_64,_64):(_64,_1))",
        # smem that is not contiguous in the tile's first gmem mode
        f"make_tma_copy(SM90_TMA_LOAD{{}},{gmem_mk('half_t', 'K')},(_64,_64):(_128,_2))",
    ]
    return out

# ---------------------------------------------------------------- running CuTe

def build(cxx, includes, workdir):
    """Compile every case; drop those CuTe rejects at compile time. Returns (binary, kept ids)."""
    alive = list(range(len(cxx)))
    for _ in range(40):
        src, line_of = [PRELUDE], {}
        for i in alive:
            line_of[sum(s.count("\n") for s in src) + 1] = i
            src.append(f"void case_{i}() {{ show({cxx[i]}); }}\n")
        src.append("typedef void (*fn)();\nfn table[] = {" + ",".join(f"case_{i}" for i in alive) + "};\n")
        src.append("int ids[] = {" + ",".join(str(i) for i in alive) + "};\n" + MAIN)
        cpp, exe = os.path.join(workdir, "tma.cpp"), os.path.join(workdir, "tma")
        open(cpp, "w").write("".join(src))
        r = subprocess.run(["g++", "-std=c++17", "-O0", "-w", "-fmax-errors=400",
                            "-D__CUDACC_VER_MAJOR__=12", "-D__CUDACC_VER_MINOR__=8",
                            "-DCUTLASS_ENABLE_DIRECT_CUDA_DRIVER_CALL", *includes, cpp, "-o", exe],
                           capture_output=True, text=True)
        if r.returncode == 0:
            return exe, alive
        bad = {line_of[int(m.group(1))] for m in re.finditer(r"tma\.cpp:(\d+):", r.stderr)
               if int(m.group(1)) in line_of}
        if not bad:
            sys.stderr.write(r.stderr[-4000:])
            raise SystemExit("compile failed with no attributable case")
        alive = [i for i in alive if i not in bad]
    raise SystemExit("too many compile rounds")


def main():
    oracle = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("KUTE_ORACLE")
    if not oracle:
        raise SystemExit(__doc__)
    sys.path.insert(0, oracle)
    import expr2cxx, cxx_oracle
    expr2cxx.STATIC_ONLY = False      # integers as written: `4096` is CuTe's int, `_64` its Int<64>
    exprs = cases()
    cxx = [expr2cxx.translate(e) for e in exprs]
    answers = ["error"] * len(exprs)
    with tempfile.TemporaryDirectory() as d:
        exe, alive = build(cxx, cxx_oracle.includes(), d)
        out = subprocess.run([exe], capture_output=True, text=True).stdout
    # each case's output is `#id\t<answer>\n#END#`; a crashed case has no #END#, and a second
    # `#id\terror` follows it
    parts = re.split(r"(?:^|\n)#(\d+)\t", out)
    for i, body in zip(parts[1::2], parts[2::2]):
        done = body.split("\n#END#")
        answers[int(i)] = done[0].strip("\n").strip().replace("\n", "\\n") if len(done) > 1 else "error"
    print("# CuTe's TMA copies (make_tma_copy and friends), from its own C++ headers: gen_tma.py")
    for e, a in zip(exprs, answers):
        print(f"{e}\t{a}")


if __name__ == "__main__":
    main()
