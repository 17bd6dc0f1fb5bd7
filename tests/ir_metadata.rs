//! The metadata layer: every module-level node read, eagerly and through the writer's
//! index, and the two agree.

use llvm_bitstream_reader::ir::{MetadataNode, Module};

fn testdata(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/testdata/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

#[test]
fn lazy_nodes_equal_eager_nodes() {
    for name in ["rustc_llvm22_o0_debuginfo.bc", "llvm14_ir_debuginfo.bc", "rustc_llvm22_o3.bc"] {
        let bytes = testdata(name);
        let module = Module::parse(&bytes).unwrap();
        let eager = module.metadata().unwrap();
        let mut lazy = module.lazy_metadata().unwrap();
        assert_eq!(eager.len(), lazy.len(), "{name}");
        let named: Vec<_> = eager.named().map(|(n, o)| (n.to_vec(), o.to_vec())).collect();
        let lazy_named: Vec<_> = lazy.named().map(|(n, o)| (n.to_vec(), o.to_vec())).collect();
        assert_eq!(named, lazy_named, "{name}");
        // One node read on demand reads one record.
        let last = eager.len() - 1;
        let before = lazy.records_read();
        assert_eq!(lazy.node(last).unwrap(), eager.node(last), "{name}");
        assert!(lazy.records_read() - before <= 1);
        for id in 0..eager.len() {
            assert_eq!(lazy.node(id).unwrap(), eager.node(id), "{name} id {id}");
        }
        let debug = (0..eager.len()).filter(|&id| matches!(eager.node(id), Some(MetadataNode::Debug { .. }))).count();
        eprintln!("{name}: {} ids, {debug} debug nodes, {} read lazily", eager.len(), lazy.records_read());
    }
}
