//! Rows of cells drawn once and placed many times: `<defs>` and `<use>`.
//!
//! A large picture repeats itself: the shades of `(256,256):(256,1)` are the
//! same eight greys in every row, the thread labels of an MMA's C panel repeat
//! every few columns. [`Rows`] keeps each distinct run of cells once in the
//! picture's `<defs>` — a row's shortest period, and the row as that period
//! repeated — and each row of the picture is one `<use>` of its definition,
//! so the picture stays exact (every cell is drawn, with what it holds) at a
//! fraction of the size of one element per cell.

use std::collections::HashMap;
use std::fmt::Write;
use std::hash::Hash;

/// The definitions of a picture's rows, by what their cells hold.
pub(crate) struct Rows<K> {
    /// The prefix of the definitions' ids (unique per layer of a picture).
    prefix: String,
    /// Each distinct row (the keys of its cells) and its id.
    rows: HashMap<Vec<K>, String>,
    /// Each period defined on its own (for rows drawn as a period repeated): its id.
    periods: HashMap<Vec<K>, String>,
    next: usize,
    /// What a `<use>` is worth, in bytes of drawing, when choosing between a
    /// row drawn whole and its period repeated: a `<use>` is about 30 bytes,
    /// but costs a browser more than a path's rectangle (an instance of what
    /// it places).
    use_cost: usize,
    /// The `<defs>` content written so far.
    pub(crate) defs: String,
}

/// The shortest period `p` of `keys` that divides its length: `keys[i] == keys[i % p]`
/// (1 for no keys).
pub(crate) fn period<K: PartialEq>(keys: &[K]) -> usize {
    let n = keys.len();
    (1..n).find(|&p| n.is_multiple_of(p) && (p..n).all(|i| keys[i] == keys[i - p])).unwrap_or(n.max(1))
}

impl<K: Eq + Hash + Clone> Rows<K> {
    /// No definitions yet; ids start with `prefix`; a `<use>` is worth
    /// `use_cost` bytes.
    pub(crate) fn new(prefix: &str, use_cost: usize) -> Self {
        Rows {
            prefix: prefix.to_string(),
            rows: HashMap::new(),
            periods: HashMap::new(),
            next: 0,
            use_cost,
            defs: String::new(),
        }
    }

    fn define(&mut self, body: &str) -> String {
        let id = format!("{}{}", self.prefix, self.next);
        self.next += 1;
        let _ = writeln!(self.defs, "<g id=\"{id}\">{body}</g>");
        id
    }

    /// The id of a definition drawing a row of cells holding `keys`, each
    /// `step` wide, from the origin: `draw(out, run)` draws a run of cells
    /// from `x = 0`. The definition is written on first use: the row drawn
    /// whole, or its shortest period drawn once and repeated by `<use>`,
    /// whichever is shorter.
    pub(crate) fn id(&mut self, keys: &[K], step: i64, draw: &dyn Fn(&mut String, &[K])) -> String {
        if let Some(id) = self.rows.get(keys) {
            return id.clone();
        }
        if keys.is_empty() {
            let id = self.define("");
            self.rows.insert(Vec::new(), id.clone());
            return id;
        }
        let mut whole = String::new();
        draw(&mut whole, keys);
        let p = period(keys);
        let reps = keys.len() / p;
        let mut period_body = String::new();
        let known = self.periods.get(&keys[..p]).cloned();
        if known.is_none() && p < keys.len() {
            draw(&mut period_body, &keys[..p]);
        }
        let repeated_cost = period_body.len() + self.use_cost * reps;
        let id = if p == keys.len() || whole.len() <= repeated_cost {
            self.define(&whole)
        } else {
            let seg = match known {
                Some(id) => id,
                None => {
                    let id = self.define(&period_body);
                    self.periods.insert(keys[..p].to_vec(), id.clone());
                    id
                }
            };
            let mut body = String::new();
            for j in 0..reps {
                let x = j as i64 * p as i64 * step;
                let _ = write!(body, "<use xlink:href=\"#{seg}\"");
                if x != 0 {
                    let _ = write!(body, " x=\"{x}\"");
                }
                body.push_str("/>");
            }
            self.define(&body)
        };
        self.rows.insert(keys.to_vec(), id.clone());
        id
    }
}

/// `<use>` of definition `id` at `(x, y)`.
pub(crate) fn place(s: &mut String, id: &str, x: &str, y: &str) {
    let _ = writeln!(s, "<use xlink:href=\"#{id}\" x=\"{x}\" y=\"{y}\"/>");
}

/// Draw a run of cells `w` wide and `h` high from `x = 0`, each filled with its
/// colour: one path per colour, neighbours of one colour as one rectangle.
pub(crate) fn fills(out: &mut String, colours: &[String], w: i64, h: i64) {
    fills_with(out, colours, w, h, "", true)
}

/// [`fills`], each path with `attrs` (` stroke="black"`, say), and neighbours of
/// one colour merged only when `merge` (else each cell its own rectangle).
pub(crate) fn fills_with(out: &mut String, colours: &[String], w: i64, h: i64, attrs: &str, merge: bool) {
    let mut paths: Vec<(&str, String)> = Vec::new();
    let mut i = 0;
    while i < colours.len() {
        let mut j = i + 1;
        while merge && j < colours.len() && colours[j] == colours[i] {
            j += 1;
        }
        let k = match paths.iter().position(|(c, _)| *c == colours[i]) {
            Some(k) => k,
            None => {
                paths.push((&colours[i], String::new()));
                paths.len() - 1
            }
        };
        let run = (j - i) as i64 * w;
        let _ = write!(paths[k].1, "M{} 0h{run}v{h}h-{run}z", i as i64 * w);
        i = j;
    }
    for (c, d) in paths {
        if !c.is_empty() {
            let _ = write!(out, "<path fill=\"{c}\"{attrs} d=\"{d}\"/>");
        }
    }
}
