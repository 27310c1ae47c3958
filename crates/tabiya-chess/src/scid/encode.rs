//! Game → record bytes and index fields.
