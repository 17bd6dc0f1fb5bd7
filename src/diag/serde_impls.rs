//! `serde::Serialize` for the diagnostics tree: a diagnostic with its ranges, fix-its and
//! notes nested, and the file with its tables.

use alloc::string::ToString;

use serde::ser::{Serialize, SerializeSeq, SerializeStruct, Serializer};

use super::{Children, Diagnostic, Diagnostics};

impl Serialize for Diagnostic<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("Diagnostic", 10)?;
        s.serialize_field("level", &self.level())?;
        s.serialize_field("location", &self.location())?;
        s.serialize_field("category", &self.category())?;
        s.serialize_field("flag", &self.flag())?;
        s.serialize_field("message", &self.message())?;
        s.serialize_field("ranges", self.ranges())?;
        s.serialize_field("fixits", self.fixits())?;
        s.serialize_field("bit", &self.bit_offset())?;
        s.serialize_field("formatted", &self.formatted().to_string())?;
        s.serialize_field("children", &self.children())?;
        s.end()
    }
}

impl Serialize for Children<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(None)?;
        for d in self.clone() {
            seq.serialize_element(&d)?;
        }
        seq.end()
    }
}

impl Serialize for Diagnostics<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("Diagnostics", 8)?;
        s.serialize_field("version", &self.version())?;
        s.serialize_field("streams", &self.streams())?;
        s.serialize_field("files", self.files())?;
        s.serialize_field("categories", self.categories())?;
        s.serialize_field("flags", self.flags())?;
        s.serialize_field("source_file_contents", self.source_file_contents())?;
        s.serialize_field("unknown", self.unknown())?;
        s.serialize_field("diagnostics", &self.iter())?;
        s.end()
    }
}
