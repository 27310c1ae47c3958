//! Shell completions and the manual page, generated from the same clap definitions as the
//! command line itself, so they cannot drift from it.

use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;

use crate::report::CliError;

/// `tabiya completions SHELL`.
pub fn completions(shell: clap_complete::Shell, mut command: clap::Command) -> Result<ExitCode, CliError> {
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut command, "tabiya", &mut out);
    print(&out)
}

/// `tabiya man [COMMAND]`: the program's page, or one command's (`tabiya-convert(1)`).
pub fn man(command: clap::Command, name: Option<&str>) -> Result<ExitCode, CliError> {
    let page = match name {
        None => command,
        Some(name) => {
            let sub = command
                .find_subcommand(name)
                .ok_or_else(|| CliError::Usage(format!("no command '{name}' (see tabiya --help)")))?;
            let full = format!("tabiya-{name}");
            sub.clone().name(full.clone()).bin_name(full)
        }
    };
    let mut out = Vec::new();
    clap_mangen::Man::new(page).render(&mut out).map_err(|e| CliError::output(Path::new("-"), e))?;
    print(&out)
}

fn print(bytes: &[u8]) -> Result<ExitCode, CliError> {
    let mut stdout = io::stdout().lock();
    stdout.write_all(bytes).and_then(|()| stdout.flush()).map_err(|e| CliError::output(Path::new("-"), e))?;
    Ok(ExitCode::SUCCESS)
}
