export * from '../../eval/swap/rewrite';
