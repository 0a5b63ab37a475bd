//! Print kute's explanation of each argument: `cargo run --example explain_demo -- 'logical_divide(24:2, 4:2)'`.
fn main() {
    for a in std::env::args().skip(1) {
        match kute::explain::explain(&a) {
            Ok(e) => print!("{}", e.text),
            Err(e) => println!("error: {e}"),
        }
    }
}
