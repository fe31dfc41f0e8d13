//! Resources made through one type-erased core: the framework's code that runs a read (its async
//! derived value and the futures around the read) is compiled once per answer type rather than
//! once per resource (58 of them, each its own copy in the wasm before).

use std::future::Future;

use futures::future::{FutureExt, LocalBoxFuture};
use leptos::prelude::*;

/// `LocalResource::new`, with the read boxed.
pub fn resource<T, Fut>(read: impl Fn() -> Fut + 'static) -> LocalResource<T>
where
    T: 'static,
    Fut: Future<Output = T> + 'static,
{
    erased(Box::new(move || read().boxed_local()))
}

fn erased<T: 'static>(read: Box<dyn Fn() -> LocalBoxFuture<'static, T>>) -> LocalResource<T> {
    LocalResource::new(read)
}
