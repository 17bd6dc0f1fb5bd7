//! `serde::Serialize` for the raw events (feature `serde`).
//!
//! A record serializes as `{code, abbrev_id, block_id, bit, end_bit, operands, blob}`:
//! the operands as LLVM's `readRecord` returns them (array elements in their place, the
//! blob apart), the blob as bytes or `null`. The owned [`Record`] and the lent
//! [`RecordRef`] give the same output, so a JSON dump does not depend on the walk used.

use serde::ser::{Serialize, SerializeStruct, Serializer};

use crate::record::{Record, RecordInfo, RecordRef};

/// The operands as a sequence, from whichever view holds them.
struct Seq<I>(core::cell::Cell<Option<I>>);

impl<I: Iterator<Item = u64>> Serialize for Seq<I> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0.take() {
            Some(it) => s.collect_seq(it),
            None => s.collect_seq(core::iter::empty::<u64>()),
        }
    }
}

/// The blob as bytes (`serialize_bytes`), or `None`.
struct Blob<'a>(Option<&'a [u8]>);

impl Serialize for Blob<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Some(bytes) => s.serialize_some(&Bytes(bytes)),
            None => s.serialize_none(),
        }
    }
}

struct Bytes<'a>(&'a [u8]);

impl Serialize for Bytes<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(self.0)
    }
}

fn record<S: Serializer>(s: S, info: &RecordInfo<'_>, operands: impl Iterator<Item = u64>) -> Result<S::Ok, S::Error> {
    let mut st = s.serialize_struct("Record", 7)?;
    st.serialize_field("code", &info.code())?;
    st.serialize_field("abbrev_id", &info.abbrev_id())?;
    st.serialize_field("block_id", &info.block_id())?;
    st.serialize_field("bit", &info.bit_offset())?;
    st.serialize_field("end_bit", &info.end_bit_offset())?;
    st.serialize_field("operands", &Seq(core::cell::Cell::new(Some(operands))))?;
    st.serialize_field("blob", &Blob(info.blob()))?;
    st.end()
}

impl Serialize for Record<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        record(s, self, self.operands())
    }
}

impl Serialize for RecordRef<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        record(s, self, self.operands().iter().copied())
    }
}
