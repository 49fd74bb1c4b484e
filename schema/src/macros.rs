//! The definition macros of the source-of-truth types: each forwards its input to the
//! runtime macro of the same shape (type, decoder, encoder), adds the `JsonSchema`
//! impl, so the schema is emitted from the very description the wire code comes from,
//! and registers the definition (see [`crate::registry`]), so that declaring it is all it
//! takes for the registry and the emitted schema to have it.

/// Registers a definition declared in this module: [`crate::registry::decode`] and
/// [`crate::registry::names`] find it under its type name, for the version of the
/// declaring module (`v2` or `v1`), and [`crate::emit::schema`] emits it. The definition
/// macros call it; call it yourself for a type whose `JsonSchema` is written by hand (or
/// declared elsewhere and re-exported), in the module of its version.
#[macro_export]
macro_rules! register_definition {
    ($name:ident) => {
        $crate::registry::__inventory::submit! {
            $crate::registry::Entry::new(
                ::core::module_path!(),
                ::core::stringify!($name),
                $crate::registry::run::<$name>,
                $crate::registry::add_schema::<$name>,
            )
        }
    };
}

/// A wire object with its schema; grammar as the runtime's `acp_struct!`.
#[macro_export]
macro_rules! wire_struct {
    (
        $(#[doc = $doc:literal])*
        pub struct $name:ident {
            $(
                $(#[doc = $fdoc:literal])*
                pub $f:ident : $mode:ident $t:ty = $wire:literal [$($check:ident $(($($arg:expr),*))?),*]
            ),* $(,)?
        }
        $(extend $ext:tt)?
    ) => {
        $crate::acp_struct! {
            $(#[doc = $doc])*
            pub struct $name {
                $(
                    $(#[doc = $fdoc])*
                    pub $f : $mode $t = $wire [$($check $(($($arg),*))?),*]
                ),*
            }
        }

        $crate::register_definition!($name);

        impl ::schemars::JsonSchema for $name {
            fn schema_name() -> ::std::borrow::Cow<'static, str> {
                stringify!($name).into()
            }
            #[allow(unused_variables)]
            fn json_schema(g: &mut ::schemars::SchemaGenerator) -> ::schemars::Schema {
                let props = vec![$(
                    $crate::json_schema::Property {
                        name: $wire,
                        schema: $crate::json_schema::member(
                            $crate::__schema_sub!($mode $t, g),
                            &$crate::json_schema::doc(&[$($fdoc),*]),
                            &[$($crate::wire::Check::$check $(($($arg),*))?),*],
                        ),
                        required: stringify!($mode) == "req",
                    }
                ),*];
                let extend = ::serde_json::json!({});
                $( let extend = ::serde_json::json!($ext); )?
                $crate::json_schema::object(&$crate::json_schema::doc(&[$($doc),*]), props, extend)
            }
        }
    };
}

#[macro_export]
#[doc(hidden)]
macro_rules! __schema_sub {
    (req $t:ty, $g:ident) => {
        $g.subschema_for::<$t>()
    };
    (opt $t:ty, $g:ident) => {
        $g.subschema_for::<::core::option::Option<$t>>()
    };
    (maybe $t:ty, $g:ident) => {
        $g.subschema_for::<$t>()
    };
    (patch $t:ty, $g:ident) => {
        $g.subschema_for::<$crate::wire::Patch<$t>>()
    };
}

/// A named string with its schema.
#[macro_export]
macro_rules! string_newtype {
    ($(#[doc = $doc:literal])* pub struct $name:ident;) => {
        $crate::acp_string_newtype! { $(#[doc = $doc])* pub struct $name; }

        $crate::register_definition!($name);

        impl ::schemars::JsonSchema for $name {
            fn schema_name() -> ::std::borrow::Cow<'static, str> {
                stringify!($name).into()
            }
            fn json_schema(_: &mut ::schemars::SchemaGenerator) -> ::schemars::Schema {
                $crate::json_schema::string(&$crate::json_schema::doc(&[$($doc),*]))
            }
        }
    };
}

/// A string enum with its schema.
#[macro_export]
macro_rules! string_enum {
    (
        $(#[doc = $doc:literal])*
        pub enum $name:ident : $openness:ident $(($title:literal, $odoc:literal))? {
            $( $(#[doc = $vdoc:literal])* $variant:ident = $wire:literal ),* $(,)?
        }
    ) => {
        $crate::acp_string_enum! {
            $(#[doc = $doc])*
            pub enum $name : $openness $(($title, $odoc))? {
                $( $(#[doc = $vdoc])* $variant = $wire ),*
            }
        }

        $crate::register_definition!($name);

        impl ::schemars::JsonSchema for $name {
            fn schema_name() -> ::std::borrow::Cow<'static, str> {
                stringify!($name).into()
            }
            fn json_schema(_: &mut ::schemars::SchemaGenerator) -> ::schemars::Schema {
                #[allow(unused_mut, unused_assignments)]
                let mut other: Option<(&str, &str)> = None;
                $( other = Some(($title, $odoc.trim())); )?
                $crate::json_schema::string_enum(
                    &$crate::json_schema::doc(&[$($doc),*]),
                    &[$( ($wire, $crate::json_schema::doc(&[$($vdoc),*])) ),*],
                    other,
                )
            }
        }
    };
}

/// A tagged union with its schema.
#[macro_export]
macro_rules! tagged_union {
    (
        $(#[doc = $doc:literal])*
        pub enum $name:ident : tag $t:literal, $openness:ident $(($odoc:literal))? {
            $( $(#[doc = $vdoc:literal])* $variant:ident($payload:ty) = $wire:literal ),* $(,)?
        }
    ) => {
        $crate::acp_tagged_union! {
            $(#[doc = $doc])*
            pub enum $name : tag $t, $openness $(($odoc))? {
                $( $(#[doc = $vdoc])* $variant($payload) = $wire ),*
            }
        }

        $crate::register_definition!($name);

        impl ::schemars::JsonSchema for $name {
            fn schema_name() -> ::std::borrow::Cow<'static, str> {
                stringify!($name).into()
            }
            fn json_schema(g: &mut ::schemars::SchemaGenerator) -> ::schemars::Schema {
                #[allow(unused_mut, unused_assignments)]
                let mut other: Option<&str> = None;
                $( other = Some($odoc.trim()); )?
                let variants = vec![$(
                    $crate::json_schema::Variant {
                        tag: $wire,
                        description: $crate::json_schema::doc(&[$($vdoc),*]),
                        payload: $crate::json_schema::payload_ref::<$payload>(g),
                    }
                ),*];
                $crate::json_schema::union(&$crate::json_schema::doc(&[$($doc),*]), $t, variants, other)
            }
        }
    };
}

/// A shape union with its schema: alternatives told apart by a member only one requires.
#[macro_export]
macro_rules! shape_union {
    (
        $(#[doc = $doc:literal])*
        pub enum $name:ident {
            $( $(#[doc = $vdoc:literal])* $variant:ident($alt:ident) = $key:literal ),+ $(,)?
        }
    ) => {
        $crate::acp_shape_union! {
            $(#[doc = $doc])*
            pub enum $name {
                $( $(#[doc = $vdoc])* $variant($alt) = $key ),+
            }
        }

        $crate::register_definition!($name);

        impl ::schemars::JsonSchema for $name {
            fn schema_name() -> ::std::borrow::Cow<'static, str> {
                stringify!($name).into()
            }
            fn json_schema(g: &mut ::schemars::SchemaGenerator) -> ::schemars::Schema {
                let alternatives = vec![$(
                    ::serde_json::json!({ "title": stringify!($alt), "allOf": [g.subschema_for::<$alt>().to_value()] })
                ),+];
                ::schemars::json_schema!({
                    "description": $crate::json_schema::doc(&[$($doc),*]),
                    "anyOf": alternatives
                })
            }
        }
    };
}
