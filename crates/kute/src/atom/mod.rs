//! CuTe's MMA and copy atoms: the traits of the hardware's instructions
//! ([`traits`]), and the tiled MMAs and copies built from them ([`mma`],
//! [`copy`]): which thread owns which value of a tile.

pub mod bulk;
pub mod copy;
pub mod mma;
pub mod operand;
pub mod smem;
pub mod thread;
pub mod tma;
mod tma_desc;
pub mod tma_im2col;
mod tma_im2col_desc;
pub mod tmem;
pub mod traits;

pub use copy::{make_layout_tv, CopyAtom, TiledCopy};
pub use mma::{MmaAtom, TiledMma};
pub use operand::{Operand, Side};
pub use thread::{ThrCopy, ThrMma};
