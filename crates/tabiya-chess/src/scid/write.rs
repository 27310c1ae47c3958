//! Writing databases.
pub struct DatabaseWriter;
pub struct WriteSummary;
