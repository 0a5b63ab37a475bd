//! What the tiled atoms' operations are asked about: an MMA's operand (A, B
//! or C), a copy's side (source or destination), and the coordinate that
//! slices one thread's fragment out of either.

use crate::error::Result;
use crate::layout::slice::{Coord, Crd};
use crate::tree::{Builder, Tree};

/// An operand of an MMA: `A` (M×K), `B` (N×K) or the accumulator `C` (M×N).
///
/// ```
/// use kute::atom::Operand;
/// assert_eq!(Operand::B.modes(), (1, 2)); // N and K of (M, N, K)
/// assert_eq!(Operand::from_letter('C'), Some(Operand::C));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    /// `A`, M×K.
    A,
    /// `B`, N×K.
    B,
    /// `C` (and `D`), M×N.
    C,
}

impl Operand {
    /// A, B and C, in that order.
    pub const ALL: [Operand; 3] = [Operand::A, Operand::B, Operand::C];

    /// The two modes of (M, N, K) the operand spans.
    ///
    /// Pre: none. Post: `(0, 2)` for A, `(1, 2)` for B, `(0, 1)` for C.
    ///
    /// ```
    /// assert_eq!(kute::atom::Operand::C.modes(), (0, 1));
    /// ```
    pub const fn modes(self) -> (usize, usize) {
        match self {
            Operand::A => (0, 2),
            Operand::B => (1, 2),
            Operand::C => (0, 1),
        }
    }

    /// The operand a CuTe name ends with (`'A'`, `'B'`, `'C'`).
    ///
    /// Pre: none. Post: `None` for any other letter.
    ///
    /// ```
    /// assert_eq!(kute::atom::Operand::from_letter('D'), None);
    /// ```
    pub const fn from_letter(c: char) -> Option<Operand> {
        match c {
            'A' => Some(Operand::A),
            'B' => Some(Operand::B),
            'C' => Some(Operand::C),
            _ => None,
        }
    }

    /// `names[A]`, `names[B]` or `names[C]`: the operation's CuTe name for
    /// this operand (`["thrfrg_A", "thrfrg_B", "thrfrg_C"]`).
    pub(crate) const fn pick<T: Copy>(self, names: [T; 3]) -> T {
        names[self as usize]
    }
}

/// A side of a copy: where it reads (`S`) or where it writes (`D`).
///
/// ```
/// assert_eq!(kute::atom::Side::from_letter('S'), Some(kute::atom::Side::Source));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The source, CuTe's `S`.
    Source,
    /// The destination, CuTe's `D`.
    Destination,
}

impl Side {
    /// The side a CuTe name ends with (`'S'`, `'D'`).
    ///
    /// Pre: none. Post: `None` for any other letter.
    ///
    /// ```
    /// assert_eq!(kute::atom::Side::from_letter('D'), Some(kute::atom::Side::Destination));
    /// ```
    pub const fn from_letter(c: char) -> Option<Side> {
        match c {
            'S' => Some(Side::Source),
            'D' => Some(Side::Destination),
            _ => None,
        }
    }
}

/// CuTe's `repeat<rank>(_)`: `_` for rank 1, else a tuple of `rank` of them.
pub(crate) fn push_rest(b: &mut Builder<'_, Crd>, rank: usize) {
    if rank == 1 {
        b.leaf(Crd::Underscore);
    } else {
        b.open();
        for _ in 0..rank {
            b.leaf(Crd::Underscore);
        }
        b.close();
    }
}

/// `(thread, (_, repeat<rank>(_)))`: the coordinate slicing one thread's
/// fragment out of a `thrfrg` (the thread part pushed by `thread`).
pub(crate) fn fragment_coord(thread: impl FnOnce(&mut Builder<'_, Crd>), rank: usize) -> Result<Coord> {
    Tree::try_build(|b| {
        b.open();
        thread(b);
        b.open();
        b.leaf(Crd::Underscore);
        push_rest(b, rank);
        b.close();
        b.close();
        Ok(())
    })
}
