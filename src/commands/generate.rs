//! `kakurod generate`: writes seeded random Kakuro puzzles in the janko grid format, to
//! standard output or into files (with their planted fillings as `.sol` on request).

use crate::cli::GenerateArgs;
use crate::generate::{self, GenOptions};
use anyhow::{Context, bail};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Runs `kakurod generate`.
pub fn run(args: GenerateArgs) -> anyhow::Result<ExitCode> {
    if args.rows < 2 || args.cols < 2 {
        bail!("--rows and --cols must be at least 2 (the border row and column are black)");
    }
    if !(0.0..=100.0).contains(&args.black) {
        bail!("--black must be a percentage between 0 and 100");
    }
    if args.count == 0 {
        bail!("--count must be at least 1");
    }
    if args.count > 1 && args.out.is_none() {
        bail!("--count above 1 needs --out DIR");
    }
    for i in 0..args.count {
        let seed = args.seed.checked_add(i).context("seed overflows u64")?;
        let options = GenOptions::any_solution(args.rows, args.cols, args.black, seed);
        let generated = generate::generate(&options, None)?;
        let text = generate::to_janko(&generated.puzzle);
        let Some(out) = &args.out else {
            print!("{text}");
            continue;
        };
        let path = if args.count > 1 {
            std::fs::create_dir_all(out)
                .with_context(|| format!("cannot create {}", out.display()))?;
            out.join(file_name(&options))
        } else {
            out.clone()
        };
        write(&path, &text)?;
        if args.solution {
            write(&path.with_extension("sol"), &generated.filling.to_string())?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `gen_<rows>x<cols>_b<black>_s<seed>.txt`.
fn file_name(options: &GenOptions) -> PathBuf {
    PathBuf::from(format!(
        "gen_{}x{}_b{}_s{}.txt",
        options.rows, options.cols, options.black_percent, options.seed
    ))
}

fn write(path: &Path, text: &str) -> anyhow::Result<()> {
    std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
}
