//! `.tjn` solutions: read, write back, resolve against the seed's example; never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tabiya_shogi::tbase::{Diagram, read_solutions, write_solutions};
use tabiya_shogi::tsume::check_solution;

fuzz_target!(|data: &[u8]| {
    let example = Diagram::decode(include_bytes!("../../crates/tabiya-shogi/tests/data/example_3line.dia"), 0);
    let (solutions, _) = read_solutions(data);
    let _ = write_solutions(&solutions);
    if let Ok(example) = example {
        for solution in &solutions {
            let _ = check_solution(&example, solution);
        }
    }
});
