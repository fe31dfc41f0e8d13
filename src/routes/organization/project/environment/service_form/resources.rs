//! What applications and containers run with: CPU, memory, GPUs and how many instances; the same
//! fields in the forms that create them and in those that change them.

use leptos::prelude::*;
use platform_api::{FieldError, RuntimeRequest};

use crate::components::form::Numbers;
use crate::components::form_field::TextField;

/// The fields' values as typed.
#[derive(Clone, Copy)]
pub struct Resources {
    cpu: RwSignal<String>,
    memory: RwSignal<String>,
    gpu: RwSignal<String>,
    min_instances: RwSignal<String>,
    max_instances: RwSignal<String>,
}

impl Resources {
    /// A service's present resources.
    pub fn of(runtime: &RuntimeRequest) -> Self {
        let typed = |value: i64| RwSignal::new(value.to_string());
        Self {
            cpu: typed(runtime.cpu),
            memory: typed(runtime.memory),
            gpu: typed(runtime.gpu),
            min_instances: typed(runtime.min_running_instances),
            max_instances: typed(runtime.max_running_instances),
        }
    }

    /// The resources as typed, into `runtime`.
    pub fn read(&self, numbers: &mut Numbers, runtime: &mut RuntimeRequest) {
        let mut read =
            |field: &str, typed: RwSignal<String>| numbers.read(field, &typed.get_untracked());
        runtime.cpu = read("cpu", self.cpu);
        runtime.memory = read("memory", self.memory);
        runtime.gpu = read("gpu", self.gpu);
        runtime.min_running_instances = read("min_running_instances", self.min_instances);
        runtime.max_running_instances = read("max_running_instances", self.max_instances);
    }
}

#[component]
pub fn ResourceFields(resources: Resources, errors: RwSignal<Vec<FieldError>>) -> impl IntoView {
    view! {
        <TextField label="CPU (milli-CPU)" name="cpu" value=resources.cpu errors input_type="number"
            hint="1000 is one vCPU."/>
        <TextField label="Memory (MiB)" name="memory" value=resources.memory errors input_type="number"/>
        <TextField label="GPUs" name="gpu" value=resources.gpu errors input_type="number"/>
        <TextField label="Minimum instances" name="min_running_instances" value=resources.min_instances
            errors input_type="number"/>
        <TextField label="Maximum instances" name="max_running_instances" value=resources.max_instances
            errors input_type="number"/>
    }
}
