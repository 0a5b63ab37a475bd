//! `static_layout!` against kute's run-time evaluation: the value at every
//! coordinate (and past the size), and the traversal order.

use kute::codegen::StaticLayout;
use kute_macros::static_layout;

fn check(l: impl StaticLayout) {
    let dynamic = l.to_layout().unwrap();
    let n = dynamic.size().unwrap().value();
    assert_eq!(L::SIZE_OF(&l), n);
    for i in 0..2 * n + 3 {
        assert_eq!(l.eval(i), dynamic.eval(i).unwrap(), "{} at {i}", dynamic);
    }
    let mut seen = Vec::new();
    l.for_each(|x| seen.push(x));
    let want: Vec<i64> = (0..n).map(|i| dynamic.eval(i).unwrap()).collect();
    assert_eq!(seen, want, "traversal of {dynamic}");
    assert_eq!(std::mem::size_of_val(&l), 0);
}

/// `SIZE` of a value's type.
struct L;
#[allow(non_snake_case)]
impl L {
    fn SIZE_OF<T: StaticLayout>(_: &T) -> i64 {
        T::SIZE
    }
}

#[test]
fn static_layouts_are_the_layouts() {
    check(static_layout!("(_4,_8):(_8,_1)"));
    check(static_layout!("(_4,(_2,_3)):(_6,(_1,_24))"));
    check(static_layout!("((_2,_2),(_2,_4)):((_1,_4),(_2,_8))"));
    check(static_layout!("(_6,_1,_4):(_0,_7,_-3)"));
    check(static_layout!("_1:_0"));
    check(static_layout!("(3,5):(5,1)"));
    check(static_layout!("_12:_2"));
    check(static_layout!("((_4,_8),(_2,_2)):((_32,_1),(_16,_8))"));
}
