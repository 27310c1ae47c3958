//! What `verify`-style checks find, in every format: an error (the data is wrong) or a warning
//! (a deviation worth a look), with where it was found.

use std::fmt;

use crate::{Location, Severity};

/// One result of a check, with where it was found.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Finding {
    pub severity: Severity,
    pub location: Location,
    pub what: String,
}

impl Finding {
    pub fn error(location: Location, what: impl Into<String>) -> Finding {
        Finding { severity: Severity::Error, location, what: what.into() }
    }

    pub fn warning(location: Location, what: impl Into<String>) -> Finding {
        Finding { severity: Severity::Warning, location, what: what.into() }
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let severity = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(f, "{severity}: {}: {}", self.location, self.what)
    }
}
