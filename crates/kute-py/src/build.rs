//! Layouts built in place (in the storage of the Python object that will
//! hold them) from views of other layouts: no layout of the whole is made
//! and moved on the way.

use kute::tree::Builder;
use kute::{Layout, LayoutView, Mode};

/// A mode of a layout (a sub-tree) as the next mode of `b`.
pub fn push_view(b: &mut Builder<'_, Mode>, v: LayoutView<'_>) {
    push_view_mapped(b, v, &|m| m);
}

/// [`push_view`] with every integer dynamic (pycute's integers).
pub fn push_view_dynamic(b: &mut Builder<'_, Mode>, v: LayoutView<'_>) {
    push_view_mapped(b, v, &|m| Mode::with_stride(m.shape.to_dynamic(), m.stride.to_dynamic()));
}

/// [`push_view`] with `f` applied to each leaf.
fn push_view_mapped(b: &mut Builder<'_, Mode>, v: LayoutView<'_>, f: &impl Fn(Mode) -> Mode) {
    if v.is_leaf() {
        if let Some(&m) = v.leaves().first() {
            b.leaf(f(m));
        }
        return;
    }
    b.open();
    for m in v.modes() {
        push_view_mapped(b, m, f);
    }
    b.close();
}

/// CuTe's `make_layout(L0, L1, ...)` of layouts (the layouts side by side),
/// built in `out`.
///
/// Pre: none. Post: `out` is [`Layout::concat`] of `parts`, or its error
/// (for no parts, or nesting past kute's depth limit).
pub fn concat_into(out: &mut Layout, parts: &[&Layout]) -> kute::Result<()> {
    if !parts.is_empty()
        && out
            .try_build_modes_in(|b| {
                b.open();
                parts.iter().for_each(|p| push_view(b, p.view()));
                b.close();
                Ok(())
            })
            .is_ok()
        && out.depth() <= kute::limits::MAX_DEPTH
    {
        return Ok(());
    }
    out.clone_from(&Layout::concat(parts.iter().copied())?);
    Ok(())
}
