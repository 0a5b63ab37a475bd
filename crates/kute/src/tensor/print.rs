//! CuTe's `print_tensor` (`util/print_tensor.hpp`): the tensor (its
//! iterator, `o`, its layout, `:`), then its elements as a table: one per line
//! for rank 1, rows and columns for rank 2, rank-2 slices separated by a line
//! of `-` for rank 3 and rank-3 slices separated by `=` for rank 4. Each
//! element is printed by CuTe's `pretty_print` (`%5d` for integers, two
//! spaces and the tuple for a coordinate, `%10.2e` for `float`).

use super::{Engine, Tensor};
use crate::error::{Error, Result};
use crate::int::Int;
use crate::int_tuple::IntTuple;
use crate::tree::Tree;
use std::fmt::Write;

/// An element as CuTe's `pretty_print` writes it.
///
/// ```
/// use kute::tensor::PrettyPrint;
/// let mut s = String::new();
/// 7i32.pretty(&mut s);
/// 1.5f32.pretty(&mut s);
/// assert_eq!(s, "    7  1.50e+00");
/// ```
pub trait PrettyPrint {
    /// Append the element to `out`.
    ///
    /// Pre: none. Post: CuTe's `pretty_print` of the value appended.
    ///
    /// ```
    /// use kute::tensor::PrettyPrint;
    /// let mut s = String::new();
    /// 54i64.pretty(&mut s);
    /// "(4,6)".parse::<kute::IntTuple>().unwrap().pretty(&mut s);
    /// assert_eq!(s, "   54  (4,6)");
    /// ```
    fn pretty(&self, out: &mut String);
}

macro_rules! int_pretty {
    ($w:expr, $($t:ty),*) => {$(
        impl PrettyPrint for $t {
            fn pretty(&self, out: &mut String) {
                let _ = write!(out, "{:>w$}", self, w = $w);
            }
        }
    )*};
}
int_pretty!(5, i8, i16, i32, i64, u8, u16, u32, u64, isize, usize);

impl PrettyPrint for bool {
    fn pretty(&self, out: &mut String) {
        let _ = write!(out, "{:>3}", u8::from(*self));
    }
}

/// C's `%*.{prec}e`: a mantissa with `prec` decimals and an exponent of at
/// least two digits with its sign, right-aligned to `width`.
fn c_exp(v: f64, prec: usize, width: usize) -> String {
    let body = if v.is_nan() {
        "nan".to_string()
    } else if v.is_infinite() {
        if v < 0.0 { "-inf" } else { "inf" }.to_string()
    } else {
        let s = format!("{v:.prec$e}");
        match s.split_once('e') {
            Some((m, e)) => {
                let (sign, digits) = match e.strip_prefix('-') {
                    Some(d) => ('-', d),
                    None => ('+', e),
                };
                format!("{m}e{sign}{digits:0>2}")
            }
            None => s,
        }
    };
    format!("{body:>width$}")
}

impl PrettyPrint for f32 {
    fn pretty(&self, out: &mut String) {
        out.push_str(&c_exp(f64::from(*self), 2, 10));
    }
}

impl PrettyPrint for f64 {
    fn pretty(&self, out: &mut String) {
        out.push_str(&c_exp(*self, 3, 11));
    }
}

/// A coordinate (the element of an identity tensor): an integer as `%5d`, a
/// tuple as two spaces and the tuple, its integers printed as values (CuTe's
/// loop counters are run-time integers).
impl PrettyPrint for IntTuple {
    fn pretty(&self, out: &mut String) {
        match self.as_ref().as_leaf() {
            Some(x) => x.value().pretty(out),
            None => {
                let _ = write!(out, "  {}", self.map(Int::to_dynamic));
            }
        }
    }
}

fn coord(cs: &[i64]) -> IntTuple {
    Tree::tuple_of_leaves(cs.iter().map(|&c| Int::new_dynamic(c)))
}

fn mode_sizes(shape: &IntTuple) -> Result<Vec<i64>> {
    shape.as_ref().children().map(|m| Ok(crate::int_tuple::product(m.leaves())?.value())).collect()
}

/// CuTe `print_tensor(tensor)`: the header `iterator o layout:` and the
/// elements, byte for byte as CuTe prints them.
///
/// Pre: the rank is 1 to 4 (else a `Mismatch` error); every element can be
/// read (else the engine's error). Post: the text, ending in a newline.
///
/// ```
/// let t = kute::tensor::make_identity_tensor(&"(_2,_2)".parse().unwrap()).unwrap();
/// assert_eq!(kute::tensor::print_tensor(&t).unwrap(),
///            "ArithTuple(_0,_0) o (_2,_2):(_1@0,_1@1):\n  (0,0)  (0,1)\n  (1,0)  (1,1)\n");
/// ```
pub fn print_tensor<E: Engine>(t: &Tensor<E>) -> Result<String>
where
    E::Elem: PrettyPrint,
{
    let mut out = format!("{} o {}:\n", t.engine().describe(t.offset()), t.layout());
    let shape = t.shape()?;
    let rank = if shape.is_leaf() { 1 } else { shape.rank() };
    if rank == 1 {
        for m in 0..t.size()? {
            t.get(m)?.pretty(&mut out);
            out.push('\n');
        }
        return Ok(out);
    }
    if !(2..=4).contains(&rank) {
        return Err(Error::mismatch("print_tensor", format!("CuTe prints tensors of rank 1 to 4, not {rank}")));
    }
    let sz = mode_sizes(&shape)?;
    let (k_n, p_n) = (if rank >= 3 { sz[2] } else { 1 }, if rank == 4 { sz[3] } else { 1 });
    for p in 0..p_n {
        if p > 0 {
            out.push_str(&"=".repeat((5 * sz[1]) as usize));
            out.push('\n');
        }
        for k in 0..k_n {
            if k > 0 {
                out.push_str(&"-".repeat((5 * sz[1]) as usize));
                out.push('\n');
            }
            for m in 0..sz[0] {
                for n in 0..sz[1] {
                    let c = match rank {
                        2 => coord(&[m, n]),
                        3 => coord(&[m, n, k]),
                        _ => coord(&[m, n, k, p]),
                    };
                    t.at(&c)?.pretty(&mut out);
                }
                out.push('\n');
            }
        }
    }
    Ok(out)
}
