"""Contract language shared by the contract rules and the estimate: segmentation, parties, modality."""
