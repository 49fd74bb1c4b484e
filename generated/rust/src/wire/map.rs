// @generated in its copies: cargo xtask gen vendors templates/rust/runtime/map.rs byte for byte as src/wire/map.rs of every generated crate; edit it here, never a copy.
//! An object whose member values all have one type (`additionalProperties` with a
//! schema), in input order.

use super::{Cx, Decode, Encode, Got, Key, SerializeWire, Slot, Writer, skip_value};
use serde::de::MapAccess;
use std::collections::HashSet;

/// An object whose member values all have one type, in input order (a member name
/// appears once: a repeated name is `duplicate_key`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Map<T>(pub Vec<(String, T)>);

impl<T> Map<T> {
    /// The value of member `name`, if there is one.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&T> {
        self.0.iter().find(|(k, _)| k == name).map(|(_, v)| v)
    }

    /// The members, in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &T)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// How many members there are.
    #[must_use]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are no members.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<T: Decode> Decode for Map<T> {
    const EXPECTED: &'static str = "an object";
    fn from_map<'de, A: MapAccess<'de>>(mut map: A, cx: &mut Cx) -> Result<Option<Self>, A::Error> {
        let mut out = Vec::new();
        let mut names = HashSet::new();
        while let Some(k) = map.next_key_seed(Key)? {
            if names.contains(&*k) {
                cx.duplicate(&k);
                skip_value(&mut map, cx)?;
                continue;
            }
            let v = cx.at(&k, |cx| map.next_value_seed(Slot::<T>::new(cx, false)))?;
            names.insert(k.to_string());
            if let Got::Value(v) = v {
                out.push((k.into_owned(), v));
            }
        }
        Ok(if cx.failed() { None } else { Some(Self(out)) })
    }
}

impl<T: Encode> Encode for Map<T> {
    fn encode(&self, w: &mut Writer) {
        w.begin_object();
        for (k, v) in &self.0 {
            w.key(k);
            v.encode(w);
        }
        w.end_object();
    }
}

impl<T: SerializeWire> SerializeWire for Map<T> {
    fn ser<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap as _;
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, &super::Ser(v))?;
        }
        m.end()
    }
}

impl<T: SerializeWire> serde::Serialize for Map<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        SerializeWire::ser(self, s)
    }
}

impl<'de, T: Decode> serde::Deserialize<'de> for Map<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        super::deserialize::<D, Self>(d)
    }
}
