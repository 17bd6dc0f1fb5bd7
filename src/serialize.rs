//! `serde::Serialize` for the raw events (feature `serde`).
//!
//! A record serializes as `{code, abbrev_id, block_id, bit, end_bit, operands, blob}`:
//! the operands as LLVM's `readRecord` returns them (array elements in their place, the
//! blob apart), the blob as bytes or `null`. The owned [`Record`] and the lent
//! [`RecordRef`] give the same output, so a JSON dump does not depend on the walk used.

use serde::ser::{Serialize, SerializeStruct, Serializer};

use crate::record::{Record, RecordInfo, RecordRef};

/// The operands as a sequence, from whichever view holds them (an iterator, cloned to be
/// read, as `serialize` takes `&self`).
struct Seq<I>(I);

impl<I: Iterator<Item = u64> + Clone> Serialize for Seq<I> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.clone())
    }
}

/// A blob as bytes (`serialize_bytes`), not as a sequence of numbers.
struct Bytes<'a>(&'a [u8]);

impl Serialize for Bytes<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(self.0)
    }
}

fn record<S: Serializer>(
    s: S,
    info: &RecordInfo<'_>,
    operands: impl Iterator<Item = u64> + Clone,
) -> Result<S::Ok, S::Error> {
    let mut st = s.serialize_struct("Record", 7)?;
    st.serialize_field("code", &info.code())?;
    st.serialize_field("abbrev_id", &info.abbrev_id())?;
    st.serialize_field("block_id", &info.block_id())?;
    st.serialize_field("bit", &info.bit_offset())?;
    st.serialize_field("end_bit", &info.end_bit_offset())?;
    st.serialize_field("operands", &Seq(operands))?;
    st.serialize_field("blob", &info.blob().map(Bytes))?;
    st.end()
}

impl Serialize for Record<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        record(s, self, self.operands())
    }
}

impl Serialize for RecordRef<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        record(s, self, self.operands())
    }
}
