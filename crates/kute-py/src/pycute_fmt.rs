//! Layouts and integer tuples printed as pycute prints them: Python's tuples
//! (`(4, 8):(8, 1)`, a rank-1 tuple `(8,)`).

use kute::int_tuple::IntTupleRef;
use kute::Layout;
use std::fmt::Write;

/// An integer tuple as Python prints a tuple of ints.
pub fn tuple_text(t: IntTupleRef<'_>) -> String {
    let mut s = String::new();
    write_tuple(&mut s, t);
    s
}

fn write_tuple(out: &mut String, t: IntTupleRef<'_>) {
    if let Some(x) = t.as_leaf() {
        // (an unknown prints as kute prints it: `M`, `M/128`)
        let _ = if x.is_symbolic() { write!(out, "{}", x.to_dynamic()) } else { write!(out, "{}", x.value()) };
        return;
    }
    out.push('(');
    let n = t.rank();
    for (i, c) in t.children().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write_tuple(out, c);
    }
    if n == 1 {
        out.push(',');
    }
    out.push(')');
}

/// The strides of `l` as Python prints them (a basis stride as kute prints it).
fn stride_text(l: &Layout) -> String {
    let d = l.stride();
    match d.try_map(|x| x.as_int().ok_or_else(|| kute::Error::new(kute::ErrorKind::Type, "", ""))) {
        Ok(t) => tuple_text(t.as_ref()),
        Err(_) => d.to_string(),
    }
}

/// pycute's `str(L)`: `f"{shape}:{stride}"`.
pub fn layout_text(l: &Layout) -> String {
    format!("{}:{}", tuple_text(l.shape().as_ref()), stride_text(l))
}

/// pycute's `repr(L)`: `f"Layout({shape},{stride})"`.
pub fn layout_repr(l: &Layout) -> String {
    format!("Layout({},{})", tuple_text(l.shape().as_ref()), stride_text(l))
}
