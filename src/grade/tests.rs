use super::*;
use crate::format;
use crate::puzzle::Puzzle;

/// Reads a Kakuro in the janko text format.
fn kakuro(text: &str) -> Kakuro {
    let document = format::read(text, None).expect("readable puzzle");
    match document.entries.into_iter().next() {
        Some(Ok(parsed)) => match parsed.puzzle {
            Puzzle::Kakuro(k) => k,
            other => panic!("not a Kakuro: {other:?}"),
        },
        other => panic!("no puzzle: {other:?}"),
    }
}

/// The level the whole ladder needs, checked against the ladder cut one level lower.
fn needs(puzzle: &Kakuro) -> Difficulty {
    let graded = grade(puzzle);
    assert!(graded.solved_by_logic, "not solved by logic: {graded:?}");
    graded.difficulty
}

#[test]
fn search_small_puzzles_of_each_grade() {
    if std::env::var_os("KAKUROD_GRADE_SEARCH").is_none() {
        return;
    }
    let mut found = [0usize; 4];
    let mut solved = 0;
    for seed in 0..40000u64 {
        let (rows, cols) = (5 + (seed % 3) as usize, 5 + (seed / 3 % 3) as usize);
        let black = [30.0, 35.0, 40.0, 45.0][(seed / 9 % 4) as usize];
        let p = crate::generate::any_solution(rows, cols, black, seed);
        let g = grade(&p);
        if !g.solved_by_logic {
            continue;
        }
        solved += 1;
        let level = g.difficulty as usize;
        if found[level] < 3 {
            found[level] += 1;
            println!(
                "{:?} seed {seed} {:?}\n{}",
                g.difficulty,
                g.uses,
                crate::generate::to_janko(&p)
            );
        }
    }
    println!("solved {solved}, found {found:?}");
}
