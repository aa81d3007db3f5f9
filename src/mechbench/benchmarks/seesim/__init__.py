"""SeeSim: true/false questions about engineering simulations shown as image, video or text."""
